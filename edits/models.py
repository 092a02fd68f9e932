"""Card edits by card owners (docs/design.md §13): proposals to change a card or add a new one, the
votes that review them, and the scan an editor attaches as evidence.

What a vote is worth, when an edit applies and who may do what are rules of their own
(edits.review, edits.permissions); what happens is in edits.services. The catalogue's record of
where each applied value came from is cards.models.CardProvenance.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from accounts.fingerprints import ClientFingerprint
from cards.models import Card


class Edit(models.Model):
    OPEN = "open"
    APPLIED = "applied"
    REJECTED = "rejected"
    CANCELLED = "cancelled"
    EXPIRED = "expired"
    STATUS_CHOICES = [(OPEN, "Open"), (APPLIED, "Applied"), (REJECTED, "Rejected"),
                      (CANCELLED, "Cancelled"), (EXPIRED, "Expired")]

    CHANGE = "change"
    NEW_CARD = "new_card"
    KIND_CHOICES = [(CHANGE, "Changes to a card"), (NEW_CARD, "A new card")]

    kind = models.CharField(max_length=10, choices=KIND_CHOICES, default=CHANGE)
    # Null for a new card until the edit creates it (and if the card is ever deleted);
    # card_slug always names the card, so the history outlives either.
    card = models.ForeignKey(Card, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="edits")
    card_slug = models.SlugField(max_length=120, help_text="the card's id")
    set_code = models.CharField(max_length=16, db_index=True)
    changes = models.JSONField(help_text="{key: value} of the card data keys (docs/design.md §4)")
    # The changed keys' values when the edit was proposed: applying compares them with the
    # card's current values, and refuses (a conflict) if any changed since.
    before = models.JSONField(default=dict, blank=True)
    source = models.TextField(help_text="where the facts come from")
    note = models.TextField(blank=True, default="")
    editor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="card_edits")
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=OPEN)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    decided_at = models.DateTimeField(null=True, blank=True,
                                      help_text="when it was applied, rejected, cancelled or "
                                      "expired")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+",
                                   help_text="the staff member who applied or rejected it, or "
                                   "the editor who cancelled it; empty when the votes, trust or "
                                   "expiry decided")
    decision_note = models.TextField(blank=True, default="")
    reverts = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT,
                                related_name="reverted_by")
    # Where the proposal came from (accounts.fingerprints): keyed hashes, never the address.
    address_hash = models.CharField(max_length=64, blank=True, default="",
                                    help_text="keyed hash of the editor's client address")
    network_hash = models.CharField(max_length=64, blank=True, default="",
                                    help_text="keyed hash of its /24 (IPv4) or /64 (IPv6)")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "created_at"]),
            models.Index(fields=["card_slug", "status"]),
            models.Index(fields=["editor", "status"]),
        ]

    def __str__(self) -> str:
        return f"edit #{self.pk} of {self.card_slug} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("api:edit-detail", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status == self.OPEN

    @property
    def client(self) -> ClientFingerprint:
        return ClientFingerprint(self.address_hash, self.network_hash)


class Vote(models.Model):
    APPROVE = "approve"
    REJECT = "reject"
    CHOICES = [(APPROVE, "Approve"), (REJECT, "Reject")]

    edit = models.ForeignKey(Edit, on_delete=models.CASCADE, related_name="votes")
    voter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="card_edit_votes")
    vote = models.CharField(max_length=10, choices=CHOICES)
    note = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(help_text="when the vote was cast (or last replaced)")
    # Where the vote came from (accounts.fingerprints): keyed hashes, never the address.
    address_hash = models.CharField(max_length=64, blank=True, default="",
                                    help_text="keyed hash of the voter's client address")
    network_hash = models.CharField(max_length=64, blank=True, default="",
                                    help_text="keyed hash of its /24 (IPv4) or /64 (IPv6)")
    # Staff void a vote (edits.services.edit_vote_void): it is kept and shown, never counts,
    # and its voter may not vote on the edit again.
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    void_note = models.TextField(blank=True, default="", help_text="why staff voided it")

    class Meta:
        ordering = ["edit", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["edit", "voter"], name="one_vote_per_user_per_edit")
        ]

    def __str__(self) -> str:
        voided = " (voided)" if self.voided_at else ""
        return f"{self.voter} {self.vote}s edit #{self.edit_id}{voided}"

    @property
    def voided(self) -> bool:
        return self.voided_at is not None

    @property
    def client(self) -> ClientFingerprint:
        return ClientFingerprint(self.address_hash, self.network_hash)


def scan_path(instance: EditScan, filename: str) -> str:
    return f"edits/{instance.edit_id}/{filename}"


class EditScan(models.Model):
    """A photo or scan of the card, attached to an edit as its evidence: checked and re-encoded
    to WebP renditions (cards.images.scan) as the admin's scans are. It never becomes the card's
    image by itself."""

    edit = models.OneToOneField(Edit, on_delete=models.CASCADE, related_name="scan")
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    source_hash = models.CharField(max_length=64, help_text="sha256 of the uploaded bytes")
    small = models.FileField(upload_to=scan_path, max_length=300)
    normal = models.FileField(upload_to=scan_path, max_length=300)
    large = models.FileField(upload_to=scan_path, max_length=300)
    width = models.PositiveIntegerField(default=0)
    height = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"scan of edit #{self.edit_id}"
