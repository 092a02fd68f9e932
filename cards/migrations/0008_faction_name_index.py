"""A page of a faction's search walks its cards in the default order (docs/search-speed.md)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0007_postgres_search_covering_index'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='card',
            name='cards_card_faction_a71db9_idx',
        ),
        migrations.AddIndex(
            model_name='card',
            index=models.Index(fields=['faction', 'name', 'id'], name='cards_card_faction_c0ea73_idx'),
        ),
    ]
