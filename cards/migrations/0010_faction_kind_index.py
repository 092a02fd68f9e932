"""A faction's troops, citizens or offense range found and counted from its index alone, in the
default order (docs/search-speed.md): the faction index (0008) holds the personality kind's
columns and offense too."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0009_offense_index'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='card',
            name='cards_card_faction_c0ea73_idx',
        ),
        migrations.AddIndex(
            model_name='card',
            index=models.Index(fields=['faction', 'name', 'id', 'offense', 'defense', 'type', 'subtype'], name='cards_card_faction_abd462_idx'),
        ),
    ]
