"""A comparison of offense reads only the cards in its range, with their kind and faction, from
an index on both databases (docs/search-speed.md): the count of `(t:troop or t:wanderer)
off>=4` on 10,000 cards read every entry of the index of every compared column (0006, 0007)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0008_faction_name_index'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='card',
            index=models.Index(fields=['offense', 'defense', 'type', 'subtype', 'faction'], name='cards_card_offense_5a2d63_idx'),
        ),
    ]
