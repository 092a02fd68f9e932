"""The collection, goldfish and playtest move to apps of their own (issue 16): their models
leave the decks app's state, their tables stay where they are, adopted by those apps' first
migrations."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('decks', '0005_playtest_game'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.RemoveField(
                model_name='collection',
                name='owner',
            ),
            migrations.RemoveConstraint(
                model_name='collectionentry',
                name='collection_card',
            ),
            migrations.RemoveConstraint(
                model_name='collectionentry',
                name='collection_entry_counts_not_negative',
            ),
            migrations.RemoveIndex(
                model_name='goldfishchunk',
                name='goldfish_chunk_status',
            ),
            migrations.RemoveConstraint(
                model_name='goldfishchunk',
                name='goldfish_chunk_index',
            ),
            migrations.RemoveIndex(
                model_name='goldfishrun',
                name='goldfish_run_requester',
            ),
            migrations.RemoveConstraint(
                model_name='goldfishrun',
                name='goldfish_run_reusable_once',
            ),
            migrations.RemoveConstraint(
                model_name='goldfishrun',
                name='goldfish_run_games',
            ),
            migrations.RemoveConstraint(
                model_name='playtestgame',
                name='playtest_game_has_an_owner_or_a_session',
            ),
            migrations.RemoveField(
                model_name='collectionentry',
                name='card',
            ),
            migrations.RemoveField(
                model_name='collectionentry',
                name='collection',
            ),
            migrations.RemoveField(
                model_name='goldfishchunk',
                name='run',
            ),
            migrations.RemoveField(
                model_name='goldfishrun',
                name='deck',
            ),
            migrations.RemoveField(
                model_name='goldfishrun',
                name='owner',
            ),
            migrations.RemoveField(
                model_name='playtestgame',
                name='owner',
            ),
            migrations.RemoveField(
                model_name='playtestgame',
                name='source_deck',
            ),
            migrations.DeleteModel(
                name='Collection',
            ),
            migrations.DeleteModel(
                name='CollectionEntry',
            ),
            migrations.DeleteModel(
                name='GoldfishChunk',
            ),
            migrations.DeleteModel(
                name='GoldfishRun',
            ),
            migrations.DeleteModel(
                name='PlaytestGame',
            ),
        ]),
    ]
