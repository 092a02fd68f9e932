import secrets

from django.db import migrations, models

import decks.models


def give_every_deck_a_token(apps, schema_editor):
    # Unlisted decks were reached by their number; from now on by a link nobody can guess.
    Deck = apps.get_model("decks", "Deck")
    for deck in Deck.objects.only("pk").iterator():
        Deck.objects.filter(pk=deck.pk).update(share_token=secrets.token_urlsafe(12))


class Migration(migrations.Migration):

    dependencies = [
        ('decks', '0007_version_sessions'),
    ]

    operations = [
        migrations.AddField(
            model_name='deck',
            name='share_token',
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(give_every_deck_a_token, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='deck',
            name='share_token',
            field=models.CharField(default=decks.models.new_share_token, editable=False,
                                   max_length=32, unique=True),
        ),
    ]
