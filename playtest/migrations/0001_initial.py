"""Playtest: adopts the tables that the decks app made for it (decks_playtestgame), without
copying them, and renames what named them by their old app: content types (so permissions
and admin history follow)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from backup.moved_models import rename_content_types


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('decks', '0006_features_move_to_their_apps'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        rename_content_types("playtest", ["playtestgame"]),
        # The tables are there already, made by the decks app's migrations: only Django's
        # idea of which app owns them changes (issue 16); no table is copied.
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='PlaytestGame',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('session_token', models.CharField(blank=True, db_index=True, max_length=43)),
                    ('deck_name', models.CharField(max_length=200)),
                    ('deck_text', models.TextField(help_text='the decklist as text, to read and to play again')),
                    ('deck', models.JSONField(help_text='the deck as played (JSON decklist shape), holdings chosen')),
                    ('seed', models.BigIntegerField()),
                    ('config', models.JSONField(help_text="the engine's options: target, players, round cap...")),
                    ('actions', models.JSONField(default=list, help_text='every action applied, in order')),
                    ('state', models.JSONField(help_text="the engine's state after the last action")),
                    ('decisions', models.PositiveIntegerField(default=0)),
                    ('round', models.PositiveIntegerField(default=1)),
                    ('outcome', models.CharField(blank=True, max_length=20)),
                    ('share_token', models.CharField(blank=True, max_length=43, null=True, unique=True)),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('updated_at', models.DateTimeField(auto_now=True)),
                    ('owner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='playtest_games', to=settings.AUTH_USER_MODEL)),
                    ('source_deck', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='playtest_games', to='decks.deck')),
                ],
                options={
                    'db_table': 'decks_playtestgame',
                    'ordering': ['-updated_at', '-id'],
                    'constraints': [models.CheckConstraint(condition=models.Q(('owner__isnull', False), models.Q(('session_token', ''), _negated=True), _connector='OR'), name='playtest_game_has_an_owner_or_a_session')],
                },
            ),
        ]),
    ]
