"""The collection: adopts the tables that the decks app made for it (decks_collection,
decks_collectionentry), without copying them, and renames what named them by their old app:
content types (so permissions and admin history follow)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from backup.moved_models import rename_content_types


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('cards', '0002_catalogue_revision_and_indexes'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        rename_content_types("collection", ["collection", "collectionentry"]),
        # The tables are there already, made by the decks app's migrations: only Django's
        # idea of which app owns them changes (issue 16); no table is copied.
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='Collection',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('version', models.PositiveIntegerField(default=1)),
                    ('share_token', models.CharField(blank=True, max_length=43, null=True, unique=True)),
                    ('updated_at', models.DateTimeField(auto_now=True)),
                    ('owner', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='collection', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'decks_collection',
                },
            ),
            migrations.CreateModel(
                name='CollectionEntry',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('owned', models.PositiveIntegerField(default=0)),
                    ('want', models.PositiveIntegerField(default=0)),
                    ('trade', models.PositiveIntegerField(default=0)),
                    ('card', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='collection_entries', to='cards.card')),
                    ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='collection.collection')),
                ],
                options={
                    'db_table': 'decks_collectionentry',
                    'ordering': ['collection', 'card'],
                    'constraints': [models.UniqueConstraint(fields=('collection', 'card'), name='collection_card'), models.CheckConstraint(condition=models.Q(('owned__gte', 0), ('trade__gte', 0), ('want__gte', 0)), name='collection_entry_counts_not_negative')],
                },
            ),
        ]),
    ]
