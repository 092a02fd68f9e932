"""Goldfish: adopts the tables that the decks app made for it (decks_goldfishrun,
decks_goldfishchunk), without copying them, and renames what named them by their old app:
content types (so permissions and admin history follow), and the worker's queued tasks,
which name the task by its module."""

import django.db.models.deletion
import uuid
from django.conf import settings
from django.db import migrations, models

from sitewide.moved_models import rename_content_types, rename_task


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('django_tasks_database', '0021_conditional_partial_index_ordering'),
        ('decks', '0006_features_move_to_their_apps'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        rename_content_types("goldfish", ["goldfishrun", "goldfishchunk"]),
        rename_task("decks.tasks.goldfish_work", "goldfish.tasks.goldfish_work"),
        # The tables are there already, made by the decks app's migrations: only Django's
        # idea of which app owns them changes (issue 16); no table is copied.
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='GoldfishRun',
                fields=[
                    ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                    ('requester', models.CharField(max_length=80)),
                    ('deck_version', models.PositiveIntegerField(blank=True, null=True)),
                    ('deck_name', models.CharField(blank=True, max_length=200)),
                    ('decklist', models.JSONField(help_text='the deck in the JSON decklist shape')),
                    ('card_facts', models.JSONField(help_text='the facts of its cards, as the engine read them')),
                    ('contents_hash', models.CharField(max_length=64)),
                    ('games', models.PositiveIntegerField()),
                    ('seed', models.BigIntegerField()),
                    ('policy', models.CharField(max_length=20)),
                    ('target', models.PositiveSmallIntegerField()),
                    ('players', models.PositiveSmallIntegerField()),
                    ('round_cap', models.PositiveSmallIntegerField()),
                    ('rules_version', models.CharField(max_length=60)),
                    ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed'), ('cancelled', 'Cancelled')], default='queued', max_length=10)),
                    ('chunks_total', models.PositiveIntegerField()),
                    ('chunks_done', models.PositiveIntegerField(default=0)),
                    ('report_json', models.TextField(blank=True)),
                    ('error', models.TextField(blank=True)),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('started_at', models.DateTimeField(blank=True, null=True)),
                    ('finished_at', models.DateTimeField(blank=True, null=True)),
                    ('watch_at', models.DateTimeField(blank=True, null=True)),
                    ('deck', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='goldfish_runs', to='decks.deck')),
                    ('owner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='goldfish_runs', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'decks_goldfishrun',
                    'ordering': ['-created_at'],
                },
            ),
            migrations.CreateModel(
                name='GoldfishChunk',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('index', models.PositiveIntegerField()),
                    ('first', models.PositiveIntegerField()),
                    ('last', models.PositiveIntegerField()),
                    ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('skipped', 'Skipped')], default='queued', max_length=10)),
                    ('lease_owner', models.CharField(blank=True, max_length=100)),
                    ('lease_expires', models.DateTimeField(blank=True, null=True)),
                    ('attempts', models.PositiveSmallIntegerField(default=0)),
                    ('tally', models.JSONField(blank=True, null=True)),
                    ('finished_at', models.DateTimeField(blank=True, null=True)),
                    ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chunks', to='goldfish.goldfishrun')),
                ],
                options={
                    'db_table': 'decks_goldfishchunk',
                    'ordering': ['run', 'index'],
                },
            ),
            migrations.AddIndex(
                model_name='goldfishrun',
                index=models.Index(fields=['requester', 'status'], name='goldfish_run_requester'),
            ),
            migrations.AddConstraint(
                model_name='goldfishrun',
                constraint=models.UniqueConstraint(condition=models.Q(('status__in', ['queued', 'running', 'done'])), fields=('contents_hash', 'rules_version', 'policy', 'target', 'players', 'round_cap', 'games', 'seed'), name='goldfish_run_reusable_once'),
            ),
            migrations.AddConstraint(
                model_name='goldfishrun',
                constraint=models.CheckConstraint(condition=models.Q(('games__gte', 1)), name='goldfish_run_games'),
            ),
            migrations.AddIndex(
                model_name='goldfishchunk',
                index=models.Index(fields=['run', 'status'], name='goldfish_chunk_status'),
            ),
            migrations.AddConstraint(
                model_name='goldfishchunk',
                constraint=models.UniqueConstraint(fields=('run', 'index'), name='goldfish_chunk_index'),
            ),
        ]),
    ]
