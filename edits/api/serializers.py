"""Input and output serializers of the card edit API, one per operation (HackSoft style).

The output serializers document the edit document for the OpenAPI schema; the views build the
document itself in edits.documents (one shape for the API and ``export_edits``).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from cards.card_data import EDITABLE_KEYS, MAX_TEXT
from edits.models import Edit, Vote

# Input.


class ProposalSerializer(serializers.Serializer[Any]):
    """Changes to a card (`card` and `changes`) or a card that is not in the catalogue yet
    (`new_card`), with the `source` of the facts. Values are checked as the card data contract
    checks them (docs/design.md §4); a `null` value means unknown."""

    card = serializers.CharField(required=False, help_text="the id of the card to change")
    changes = serializers.DictField(
        child=serializers.JSONField(), required=False,
        help_text=f"{{key: value}}, keys of the card data but id, set, official and image: "
        f"{', '.join(EDITABLE_KEYS)}")
    new_card = serializers.DictField(child=serializers.JSONField(), required=False,
                                     help_text="a card object of the card data format")
    source = serializers.CharField(allow_blank=True, trim_whitespace=False,  # type: ignore[assignment]
                                   help_text="where the facts come from (required, not empty)")
    note = serializers.CharField(allow_blank=True, required=False, default="",
                                 max_length=MAX_TEXT)
    before = serializers.DictField(
        child=serializers.JSONField(allow_null=True), required=False,
        help_text="optional: the changed keys' values as you saw them; if the card has changed "
        "since, 409 with the conflicts, and nothing is stored")


class VoteSerializer(serializers.Serializer[Any]):
    vote = serializers.ChoiceField(choices=[c for c, _ in Vote.CHOICES])
    note = serializers.CharField(allow_blank=True, required=False, default="",
                                 max_length=MAX_TEXT,
                                 help_text="required with a rejection: what is wrong")


class VoidSerializer(serializers.Serializer[Any]):
    note = serializers.CharField(allow_blank=True, required=False, default="",
                                 max_length=MAX_TEXT,
                                 help_text="why the vote is voided (required)")


class DecisionSerializer(serializers.Serializer[Any]):
    note = serializers.CharField(allow_blank=True, required=False, default="",
                                 max_length=MAX_TEXT,
                                 help_text="required to reject: what is wrong")


class RevertSerializer(serializers.Serializer[Any]):
    source = serializers.CharField(allow_blank=True, required=False, default="",  # type: ignore[assignment]
                                   max_length=MAX_TEXT,
                                   help_text="default: \"Revert of edit #n\"")
    note = serializers.CharField(allow_blank=True, required=False, default="",
                                 max_length=MAX_TEXT)


class RevertEditorSerializer(serializers.Serializer[Any]):
    editor = serializers.CharField(help_text="the user name of the editor")
    note = serializers.CharField(max_length=MAX_TEXT, help_text="why (required)")


class ScanUploadSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(help_text="JPEG, PNG or WebP, at most 10 MB and 25 megapixels")


class ScanPhotoSerializer(serializers.Serializer[Any]):
    image = serializers.FileField(
        help_text="a JPEG, PNG or WebP photo of one card or of a binder page, at most 10 MB "
                  "and 25 megapixels")


# Output (for the schema).


class ScannedCardSerializer(serializers.Serializer[Any]):
    corners = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=2,
                                    max_length=2),
        min_length=4, max_length=4,
        help_text="[x, y] in the photo's pixels, clockwise from the card's top left")
    doubtful = serializers.ListField(child=serializers.CharField(),
                                     help_text="the keys whose reading is doubtful")
    card = serializers.CharField(allow_null=True,
                                 help_text="the catalogue card with the name read, if any")

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # A field named "fields" cannot be declared: it would hide Serializer.fields.
        fields = super().get_fields()
        fields["fields"] = serializers.DictField(
            child=serializers.JSONField(allow_null=True),
            help_text="the values read, under the card data keys its type prints; null where "
                      "printed but not read")
        return fields


class ScanReadingSerializer(serializers.Serializer[Any]):
    cards = ScannedCardSerializer(many=True, help_text="in reading order: rows from the top, "
                                                       "left to right in a row")
    warnings = serializers.ListField(child=serializers.CharField())


class VotesSerializer(serializers.Serializer[Any]):
    approve = serializers.IntegerField(help_text="approvals that count")
    reject = serializers.IntegerField(help_text="rejections that count")


class ConflictSerializer(serializers.Serializer[Any]):
    field = serializers.CharField(allow_null=True)
    proposed_against = serializers.JSONField(help_text="the value when the edit was proposed")
    current = serializers.JSONField(help_text="the card's value now")
    proposed = serializers.JSONField(help_text="the value the edit would set")


class BallotSerializer(serializers.Serializer[Any]):
    voter = serializers.CharField()
    vote = serializers.ChoiceField(choices=[c for c, _ in Vote.CHOICES])
    note = serializers.CharField(allow_blank=True)
    created = serializers.DateTimeField()
    counts = serializers.BooleanField(help_text="whether this vote counts now: not voided, "
                                      "the voter's account is old enough, has applied edits or "
                                      "is staff, and it did not come from the editor's address "
                                      "nor from an address that already voted so")
    voided = serializers.BooleanField(help_text="staff voided it: it never counts")


class ScanUrlsSerializer(serializers.Serializer[Any]):
    small = serializers.CharField()
    normal = serializers.CharField()
    large = serializers.CharField()


class PersonTrustSerializer(serializers.Serializer[Any]):
    joined = serializers.DateTimeField()
    account_age_days = serializers.IntegerField()
    applied_edits = serializers.IntegerField(help_text="applied edits, less reverted ones")
    staff = serializers.BooleanField()
    address_recorded = serializers.BooleanField(
        help_text="whether the client address's fingerprint was recorded")


class EditorTrustSerializer(PersonTrustSerializer):
    user = serializers.CharField()


class VoidedSerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    by = serializers.CharField(allow_null=True)
    note = serializers.CharField()


class VoterTrustSerializer(PersonTrustSerializer):
    voter = serializers.CharField()
    vote = serializers.ChoiceField(choices=[c for c, _ in Vote.CHOICES])
    established = serializers.BooleanField(
        help_text="old enough, with an applied edit, or staff")
    counts = serializers.BooleanField()
    reasons = serializers.ListField(
        child=serializers.ChoiceField(choices=["voided", "new_account", "editor_address",
                                               "shared_address"]),
        help_text="why the vote does not count")
    same_address_as_editor = serializers.BooleanField()
    same_network_as_editor = serializers.BooleanField(help_text="the same /24 or /64")
    same_address_as = serializers.ListField(child=serializers.CharField(),
                                            help_text="other voters from the same address")
    same_network_as = serializers.ListField(child=serializers.CharField(),
                                            help_text="other voters from the same network")
    voided = VoidedSerializer(allow_null=True)


class TrustSerializer(serializers.Serializer[Any]):
    """For staff only: what to weigh when an edit looks stuffed."""

    address_check = serializers.ChoiceField(choices=["address", "network", "off"])
    editor = EditorTrustSerializer(allow_null=True)
    voters = VoterTrustSerializer(many=True)


class EditDocumentSerializer(serializers.Serializer[Any]):
    """An edit (docs/design.md §13)."""

    id = serializers.IntegerField()
    url = serializers.CharField()
    status = serializers.ChoiceField(choices=[c for c, _ in Edit.STATUS_CHOICES])
    card = serializers.CharField(help_text="the card's id")
    changes = serializers.DictField(child=serializers.JSONField(allow_null=True))
    source = serializers.CharField()  # type: ignore[assignment]
    note = serializers.CharField(allow_blank=True)
    editor = serializers.CharField(allow_null=True, help_text="user name")
    created = serializers.DateTimeField()
    votes = VotesSerializer()
    kind = serializers.ChoiceField(choices=[c for c, _ in Edit.KIND_CHOICES])
    set = serializers.CharField(help_text="set code")
    before = serializers.DictField(child=serializers.JSONField(allow_null=True),
                                   help_text="the changed fields' values when proposed")
    conflicts = ConflictSerializer(many=True, help_text="open edits: fields changed since")
    reverts = serializers.IntegerField(allow_null=True, help_text="the edit this one reverts")
    reverted_by = serializers.ListField(child=serializers.IntegerField())
    decided = serializers.DateTimeField(allow_null=True)
    decided_by = serializers.CharField(allow_null=True)
    decision_note = serializers.CharField(allow_blank=True)
    approvals_needed = serializers.IntegerField()
    ballots = BallotSerializer(many=True)
    scan = ScanUrlsSerializer(allow_null=True)
    trust = TrustSerializer(required=False, help_text="staff only: the voters' account ages, "
                            "applied edits and shared client addresses")


class SkippedSerializer(serializers.Serializer[Any]):
    edit = serializers.IntegerField()
    field = serializers.CharField(help_text='a card data key, or "*" for the whole edit')
    reason = serializers.CharField()


class RevertedSerializer(EditDocumentSerializer):
    """The revert (an edit of its own), with the fields it left alone."""

    skipped = SkippedSerializer(many=True)


class EditorRevertedSerializer(serializers.Serializer[Any]):
    editor = serializers.CharField()
    reverted = EditDocumentSerializer(many=True, help_text="the reverts, newest edit first")
    rejected = EditDocumentSerializer(many=True, help_text="the editor's open edits")
    skipped = SkippedSerializer(many=True)


class ProvenanceSerializer(serializers.Serializer[Any]):
    source = serializers.CharField()  # type: ignore[assignment]
    editor = serializers.CharField(allow_null=True)
    date = serializers.DateTimeField()
    edit = serializers.IntegerField(allow_null=True)


class CardHistorySerializer(serializers.Serializer[Any]):
    card = serializers.CharField()
    provenance = serializers.DictField(child=ProvenanceSerializer(),
                                       help_text="{key: where its current value came from}")
    applied = EditDocumentSerializer(many=True, help_text="applied edits, newest first")
    open = EditDocumentSerializer(many=True, help_text="open edits, oldest first")
