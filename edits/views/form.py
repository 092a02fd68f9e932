"""The edit form's pages: "Improve this card" (``/cards/<id>/improve/``), "Add a missing card"
(``/sets/<code>/add/``), the live face preview and the scan reader they call with htmx.

Thin views: the form's layout and reading are edits.card_form, the proposal is
edits.services.edit_propose, a scan is read by cards.images.intake and kept by
edits.pending_scans until the form is submitted. Whatever goes wrong, the page comes back
with everything the person typed and each problem beside its field.
"""

from __future__ import annotations

import base64
import functools
import io
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html_join
from django.views.decorators.http import require_http_methods, require_POST
from PIL import Image

from accounts.fingerprints import client_fingerprint
from cards.anatomy_display import FIELD_LABELS
from cards.images.face import render_face
from cards.images.locate import Quad, straighten
from cards.images.ocr import ocr_available
from cards.images.photo_cards import CardFound, PhotoReading, read_image
from cards.images.scan import (
    CARD_HEIGHT_MM,
    CARD_WIDTH_MM,
    MAX_BYTES,
    RENDITIONS,
    ScanError,
    check_scan,
    rendition_size,
    renditions_from_image,
)
from cards.models import Card, CardSet
from cards.set_completeness import slot_number
from edits.card_form import (
    CHANGE,
    NEW_CARD,
    REDRAWN_ON_SUBTYPE,
    REDRAWN_ON_TYPE,
    SOURCE_TEXT,
    SOURCES,
    UNCHECKED,
    CardForm,
    blank_card,
    form_for,
    form_from_post,
    with_all_fields,
)
from edits.errors import EditConflict, EditError, EditForbidden, EditInvalid
from edits.models import Edit
from edits.pending_scans import (
    PHOTO,
    pending_photo,
    pending_photo_store,
    pending_scan_bytes,
    pending_scan_delete,
    pending_scan_path,
    pending_scan_store,
)
from edits.permissions import contribution_refusal
from edits.photo_reading import catalogue_card, catalogue_hints
from edits.scan_queue import (
    DOUBTFUL,
    queue_done,
    queue_head,
    queue_source_kind,
    queue_start,
    readings,
)
from edits.services import edit_propose, open_edits_left
from sitewide.throttling import throttle_wait

PREVIEW_WIDTH = RENDITIONS["normal"]
CARD_ASPECT = CARD_HEIGHT_MM / CARD_WIDTH_MM
# Whether Tesseract is here does not change while the process runs; asking starts an engine.
ocr_unavailable = functools.cache(ocr_available)


# The pages.

@require_http_methods(["GET", "POST"])
def improve(request: HttpRequest, card_id: str) -> HttpResponse:
    card = get_object_or_404(Card.objects.select_related("set"), id=card_id)
    if request.method == "POST":
        return _submit(request, card.as_data(), mode=CHANGE, card_set=card.set, card=card)
    again = _proposed_again(request, card.id)
    form = form_for(card.as_data(), mode=CHANGE, overlay=again.changes if again else None)
    return _page(request, form, card_set=card.set, card=card, again=again)


@require_http_methods(["GET", "POST"])
def add_card(request: HttpRequest, code: str) -> HttpResponse:
    card_set = get_object_or_404(CardSet, code__iexact=code)
    base = blank_card(card_set.code, card_set.official)
    if request.method == "POST":
        return _submit(request, base, mode=NEW_CARD, card_set=card_set)
    again = _proposed_again(request, None)
    overlay = dict(again.changes) if again and again.kind == Edit.NEW_CARD else {}
    number = request.GET.get("number", "")
    if card_set.size and slot_number(number, card_set.size):
        overlay["number"] = number.strip()
    form = form_for(base, mode=NEW_CARD, overlay=overlay)
    head, queued = queue_head(request.session, card_set.code)
    if head is not None and request.GET.get("queue") == "1":
        # The next card of the photo read: prefilled, its crop attached; the source chosen
        # for the card before carries over.
        found = _prefill(form, head)
        form.source_kind = queue_source_kind(request.session) or form.source_kind
        return _page(request, form, card_set=card_set, again=again, scan_queued=queued,
                     scan_message=f"Card from your photo: {queued} left to propose, this "
                     "one included.", **found)
    return _page(request, form, card_set=card_set, again=again,
                 queue_waiting=queued if head is not None else 0)


def _proposed_again(request: HttpRequest, card_id: str | None) -> Edit | None:
    """``?from=<edit>``: an edit whose values fill the form, to propose it again against the
    card as it is now (one of this card's edits, or a new card's)."""
    raw = request.GET.get("from", "")
    if not raw.isdigit() or len(raw) > 18:
        return None
    edit = Edit.objects.filter(pk=int(raw)).first()
    if edit is None or (card_id is not None and edit.card_slug != card_id):
        return None
    return edit


def _page(request: HttpRequest, form: CardForm, *, card_set: CardSet, card: Card | None = None,
          status: int = 200, again: Edit | None = None, **extra: Any) -> HttpResponse:
    if again is not None:
        form.source_kind, form.source_other = _source_kind(again.source)
        form.source_url = again.source if form.source_kind == "web" else ""
        form.note = again.note
    with_all_fields(form)
    context = {
        "form": form,
        "card": card,
        "set": card_set,
        "regions": form.regions(),
        "sources": SOURCES,
        "refusal": contribution_refusal(request.user),
        "ocr_unavailable": ocr_unavailable(),
        "face": _face_data_url(form, card_set),
        "scan_url": _scan_url(request, form.scan_token),
        "scan_crop_url": _scan_crop_url(request, form.scan_token),
        "proposed_again": again,
        "max_mb": MAX_BYTES // 2**20,
        "unchecked_message": UNCHECKED,
        **extra,
    }
    response = render(request, "edits/form.html", context, status=status)
    if "wait" in extra:
        response["Retry-After"] = str(extra["wait"])
    return response


def _source_kind(source: str) -> tuple[str, str]:
    for kind, text in SOURCE_TEXT.items():
        if source == text:
            return kind, ""
    if source.startswith(("http://", "https://")):
        return "web", ""
    return "other", source


# Submitting.

def _submit(request: HttpRequest, base: dict[str, Any], *, mode: str, card_set: CardSet,
            card: Card | None = None) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = form_from_post(base, request.POST, mode=mode)
    page: dict[str, Any] = {"card_set": card_set, "card": card}
    if request.POST.get("action") == "read":  # without JavaScript: read the scan, then check
        found = _read_upload(request, form, card)
        return _page(request, form, status=found.pop("status", 200), **page, **found)
    if request.POST.get("action") == "corners":  # the four corners placed on the photo
        found = _read_corners(request, form, card)
        return _page(request, form, status=found.pop("status", 200), **page, **found)
    if request.POST.get("action") == "skip" and form.scan_token and mode == NEW_CARD:
        return _skip(request, form, card_set)
    refusal = contribution_refusal(request.user)
    if refusal:
        return _page(request, form, status=403, **page)
    wait = throttle_wait(request, "edits")
    if wait is not None:
        return _page(request, form, status=429, wait=wait, **page)
    values = form.values()
    form.refuse_unconfirmed()
    scan = _scan_bytes(request, form)
    source = form.source(has_scan=scan is not None)
    proposal: dict[str, Any]
    if mode == CHANGE:
        changes, before = form.changes(values)
        if not changes and not form.has_errors:
            form.errors.setdefault("form", []).append(
                "Nothing was changed: every value is the card's already. Change a value (an "
                "empty field stays unknown).")
        proposal = {"card": base["id"], "changes": changes, "before": before}
    else:
        proposal = {"new_card": form.new_card(values)}
    if form.has_errors:
        return _page(request, form, status=400, **page)
    try:
        edit = edit_propose(editor=request.user, source=source, note=form.note, scan=scan,
                            client=client_fingerprint(request), **proposal)
    except EditConflict as error:
        # Shown beside the fields; submitting again proposes against the card as it is now.
        form.conflicts = error.conflicts
        form.before = {k: v for k, v in base.items() if k in form.before}
        return _page(request, form, status=409, **page)
    except EditInvalid as error:
        form.add_service_errors(error.errors)
        return _page(request, form, status=400, **page)
    except EditForbidden as error:
        form.errors.setdefault("form", []).append(error.detail)
        queued = queue_head(request.session, card_set.code)[1] if mode == NEW_CARD else 0
        return _page(request, form, status=403, forbidden=error.code, queue_kept=queued,
                     **page)
    except EditError as error:
        form.errors.setdefault("form", []).append(error.detail)
        return _page(request, form, status=error.status, **page)
    left = 0
    if form.scan_token:
        pending_scan_delete(user_id=_uid(request), token=form.scan_token)
        left = queue_done(request.session, form.scan_token, source_kind=form.source_kind)
    if edit.status == Edit.APPLIED:
        messages.success(request, "Your edit was applied at once (you are a trusted editor).")
    else:
        messages.success(request, "Your edit is proposed: other card owners review it. It is "
                         "applied once enough of them approve.")
    if request.POST.get("action") == "propose_next" and left and mode == NEW_CARD:
        return redirect(reverse("edits:add", args=[card_set.code.lower()]) + "?queue=1")
    return redirect("edits:detail", edit.pk)


def _skip(request: HttpRequest, form: CardForm, card_set: CardSet) -> HttpResponse:
    """The queue's card is left out (the catalogue has it already, or the person does not
    want to propose it): its crop is dropped and the next card opens."""
    pending_scan_delete(user_id=_uid(request), token=form.scan_token)
    left = queue_done(request.session, form.scan_token, source_kind=form.source_kind)
    add = reverse("edits:add", args=[card_set.code.lower()])
    messages.info(request, f"Card skipped{f': {left} left to propose' if left else ''}.")
    return redirect(add + "?queue=1" if left else add)


def _scan_bytes(request: HttpRequest, form: CardForm) -> bytes | None:
    """The scan to attach: the one read already (its token), else a file sent with the form."""
    if form.scan_token:
        data = pending_scan_bytes(user_id=_uid(request), token=form.scan_token)
        if data is None:
            form.errors.setdefault("file", []).append(
                "The scan read earlier is no longer kept: attach it again.")
            form.scan_token = ""
        return data
    upload = request.FILES.get("scan")
    if upload is None:
        return None
    if upload.size is not None and upload.size > MAX_BYTES:
        form.errors.setdefault("file", []).append(
            f"The scan is {upload.size / 2**20:.1f} MB; the limit is {MAX_BYTES // 2**20} MB.")
        return None
    return upload.read()


# The scan reader (htmx, and the form's "Read the scan" button without JavaScript).

@require_POST
def scan_read(request: HttpRequest) -> HttpResponse:
    """Read the attached scan and answer the scan's status, with the fields prefilled from
    what was read and the face redrawn (both swapped out of band)."""
    card_set, card, base, mode = _form_target(request)
    form = form_from_post(base, request.POST, mode=mode)
    found = _read_upload(request, form, card)
    status = found.pop("status", 200)
    with_all_fields(form)
    context = {
        "form": form, "card": card, "set": card_set, "regions": form.regions(),
        "ocr_unavailable": ocr_unavailable(), "scan_url": _scan_url(request, form.scan_token),
        "scan_crop_url": _scan_crop_url(request, form.scan_token),
        "face": _face_data_url(form, card_set) if status == 200 else None,
        "sources": SOURCES, "max_mb": MAX_BYTES // 2**20, **found,
    }
    response = render(request, "edits/_scan_answer.html", context, status=status)
    if "wait" in found:
        response["Retry-After"] = str(found["wait"])
    return response


def _read_upload(request: HttpRequest, form: CardForm, card: Card | None = None
                 ) -> dict[str, Any]:
    """Check, straighten, keep and read the uploaded scan; prefill the form from it. Returns
    what the page shows about it (``scan_message``, ``scan_read``, or a ``status`` with
    ``scan_error`` or ``wait``)."""
    if not request.user.is_authenticated:
        return {"status": 403, "scan_error": "Log in to attach a scan."}
    refusal = contribution_refusal(request.user)
    if refusal:
        return {"status": 403, "scan_error": refusal}
    upload = request.FILES.get("scan")
    if upload is None:
        return {"status": 400, "scan_error": "Choose a photo or scan of the card first."}
    if upload.size is not None and upload.size > MAX_BYTES:
        return {"status": 400, "scan_error": f"The file is {upload.size / 2**20:.1f} MB; the "
                f"limit is {MAX_BYTES // 2**20} MB."}
    wait = throttle_wait(request, "scans")
    if wait is not None:
        return {"status": 429, "wait": wait}
    try:
        photo = check_scan(upload.read()).image
    except ScanError as error:
        return {"status": 400, "scan_error": f"This file was refused: {error}."}
    reading = read_image(photo, read_text=ocr_unavailable() is None,
                         hints=catalogue_hints(str(form.base.get("set", ""))))
    if not reading.cards:  # kept as evidence all the same, as it is
        form.scan_token = pending_scan_store(user_id=_uid(request),
                                             renditions=renditions_from_image(photo))
        why = "; ".join(reading.warnings) or "no card found in the photo"
        return {"scan_message": f"No card found ({why}); the photo is kept as it is and "
                "nothing was read. Place the card's four corners on the photo below, or "
                "photograph the card again, flat and whole in the frame, from above.",
                "scan_read": [], "scan_reading": False,
                "corner_tool": _corner_tool(request, photo, None)}
    entries = [_queue_entry(request, found) for found in reading.cards]
    if len(entries) > 1 and form.mode == NEW_CARD:
        queue_start(request.session, set_code=str(form.base.get("set", "")), entries=entries)
    found = {**_prefill(form, entries[0]), "scan_queued": len(entries)
             if len(entries) > 1 and form.mode == NEW_CARD else 0}
    found["scan_message"] = _reading_message(reading, entries[0], card)
    left = open_edits_left(request.user)
    if found["scan_queued"] and left is not None and left < len(entries):
        # A new account holds a few open edits at once: said now, not at the sixth card.
        found["scan_queue_limit"] = left
    if entries[0]["outline"]:
        found["corner_tool"] = _corner_tool(request, photo, reading.cards[0].corners)
    other = catalogue_card(entries[0]["fields"].get("name"))
    if card is not None and other is not None and other != card.id:
        found["other_card"] = Card.objects.filter(id=other).first()
    return found


def _corner_tool(request: HttpRequest, photo: Image.Image, corners: Quad | None
                 ) -> dict[str, Any]:
    """The four-corner tool: the photo kept, and the corners to start from (those found, or
    a card-shaped outline in the middle), in the kept photo's pixels."""
    token, (width, height) = pending_photo_store(user_id=_uid(request), photo=photo)
    scale = width / photo.width
    if corners is None:
        w = min(width * 0.6, height * 0.6 / 1.4)
        h = w * 1.4
        x, y = (width - w) / 2, (height - h) / 2
        corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    points = [(round(cx * scale, 1), round(cy * scale, 1)) for cx, cy in corners]
    return {"token": token, "width": width, "height": height, "corners": points,
            "radius": round(max(width, height) * 0.018),
            "url": reverse("edits:pending_scan", args=[token, PHOTO]),
            "outline": " ".join(f"{x},{y}" for x, y in points)}


def _read_corners(request: HttpRequest, form: CardForm, card: Card | None) -> dict[str, Any]:
    """The card cut out of the kept photo at the four corners the person placed, then read
    into the form as a scan is."""
    if not request.user.is_authenticated:
        return {"status": 403, "scan_error": "Log in to attach a scan."}
    token = str(request.POST.get("photo_token", ""))
    photo = pending_photo(user_id=_uid(request), token=token)
    if photo is None:
        return {"status": 400, "scan_error": "The photo is no longer kept: attach it again."}
    try:
        points = [(float(request.POST.get(f"corner_{n}_x", "")),
                   float(request.POST.get(f"corner_{n}_y", ""))) for n in range(4)]
    except ValueError:
        return {"status": 400, "scan_error": "Place all four corners: each needs its x and y "
                "in the photo's pixels."}
    if not all(0 <= x <= photo.width and 0 <= y <= photo.height for x, y in points):
        return {"status": 400, "scan_error": "A corner lies outside the photo: drag it onto "
                "the card."}
    wait = throttle_wait(request, "scans")
    if wait is not None:
        return {"status": 429, "wait": wait}
    tl, tr, br, bl = points
    reading = read_image(straighten(photo, (tl, tr, br, bl)),
                         read_text=ocr_unavailable() is None,
                         hints=catalogue_hints(str(form.base.get("set", ""))))
    # The straightened card is the whole image now: read as it is.
    entry = _queue_entry(request, reading.cards[0]) if reading.cards else None
    if entry is None:
        return {"status": 400, "scan_error": "Nothing could be read at these corners."}
    entry["outline"] = ""
    found = _prefill(form, entry)
    found["scan_message"] = "The card was cut out at the corners you placed" + (
        "; its text was read." if entry["read"] else
        f"; the text could not be read: {ocr_unavailable()}.")
    other = catalogue_card(entry["fields"].get("name"))
    if card is not None and other is not None and other != card.id:
        found["other_card"] = Card.objects.filter(id=other).first()
    return found


def _queue_entry(request: HttpRequest, found: CardFound) -> dict[str, Any]:
    """One card found: its crop kept as a pending scan, and what was read from it."""
    token = pending_scan_store(user_id=_uid(request),
                               renditions=renditions_from_image(found.image))
    return {"token": token, "fields": found.fields, "doubtful": found.doubtful,
            "outline": found.doubtful_outline, "read": found.reading is not None}


def _prefill(form: CardForm, entry: dict[str, Any]) -> dict[str, Any]:
    """The form filled from a card read (a queue entry): the values marked to check."""
    form.scan_token = entry["token"]
    with_all_fields(form)
    found = readings(entry)
    set_code = str(form.base.get("set", ""))
    if form.mode == NEW_CARD and found.get("number") is None:
        # Not read: the set's next number without a card is offered, marked to check alone.
        offered = _next_missing_number(set_code)
        if offered is not None:
            found["number"] = (offered, DOUBTFUL)
    marked = form.apply_reading(found)
    if not form.source_kind:
        form.source_kind = "scan"  # the scan attached is the evidence
    shown: dict[str, Any] = {"scan_read": marked, "scan_reading": bool(entry.get("read")),
                             "scan_outline": entry.get("outline", "")}
    if form.mode == NEW_CARD:
        # A card the catalogue has already (a binder page holds known cards too): proposed
        # as new, it would be refused; the page offers its improve page, or to skip it.
        known = catalogue_card(entry["fields"].get("name"))
        if known is not None:
            shown["known_card"] = Card.objects.filter(id=known).first()
    return shown


def _next_missing_number(set_code: str) -> str | None:
    """The lowest collector number of the set that no card of the catalogue has, written as
    the set writes its numbers (zero-padded when they are); None for a set of unknown size."""
    card_set = CardSet.objects.filter(code__iexact=set_code).first()
    if card_set is None or not card_set.size:
        return None
    numbers = [n for n in Card.objects.filter(set=card_set).values_list("number", flat=True)
               if n]
    taken = {slot_number(n, card_set.size) for n in numbers}
    width = max((len(n) for n in numbers if n.isdigit() and n.startswith("0")), default=0)
    for slot in range(1, card_set.size + 1):
        if slot not in taken:
            return str(slot).zfill(width)
    return None


def _reading_message(reading: PhotoReading, first: dict[str, Any], card: Card | None) -> str:
    count = len(reading.cards)
    message = "Card found and straightened" if count == 1 else \
        f"{count} cards found and straightened"
    if first.get("outline"):
        message += f"; its outline is uncertain ({first['outline']})"
    if not first.get("read"):
        message += f"; the text could not be read: {ocr_unavailable() or 'Tesseract failed'}"
    return message + "."


@require_http_methods(["GET"])
def pending_scan(request: HttpRequest, token: str, size: str) -> FileResponse:
    """A scan its uploader attached to the form and has not submitted yet (theirs only)."""
    path = pending_scan_path(user_id=_uid(request), token=token, size=size) \
        if request.user.is_authenticated else None
    if path is None:
        raise Http404("No such scan.")
    response = FileResponse(default_storage.open(path, "rb"), content_type="image/webp")
    response["Cache-Control"] = "private, max-age=86400"
    return response


def _uid(request: HttpRequest) -> int:
    """The signed-in user's id (pending scans are kept per user)."""
    assert request.user.pk is not None
    return int(request.user.pk)


def _scan_crop_url(request: HttpRequest, token: str) -> str | None:
    """The large rendition of the scan when it is a card (straightened, the card's shape),
    for each part of the form to show its part of the card beside it; None for a photo kept
    as it was taken."""
    if not token or not request.user.is_authenticated:
        return None
    path = pending_scan_path(user_id=_uid(request), token=token, size="large")
    if path is None:
        return None
    with default_storage.open(path) as file, Image.open(file) as image:
        width, height = image.size  # the header only
    if abs(height / width - CARD_ASPECT) > 0.03 * CARD_ASPECT:
        return None
    return reverse("edits:pending_scan", args=[token, "large"])


def _scan_url(request: HttpRequest, token: str) -> str | None:
    if not token or not request.user.is_authenticated:
        return None
    if pending_scan_path(user_id=_uid(request), token=token, size="normal") is None:
        return None
    return reverse("edits:pending_scan", args=[token, "normal"])


# The live face preview (htmx): the face redrawn from the form's values as the person types.

@require_POST
def face_preview(request: HttpRequest) -> HttpResponse:
    card_set, card, base, mode = _form_target(request)
    wait = throttle_wait(request, "faces")
    if wait is not None:
        response = HttpResponse(status=429)
        response["Retry-After"] = str(wait)
        return response
    form = with_all_fields(form_from_post(base, request.POST, mode=mode))
    over = form.over_limits()
    if over:  # refused as the proposal would be, before anything is drawn
        return HttpResponse(format_html_join(
            "", '<p class="error" role="alert">No preview: {} {}.</p>',
            ((FIELD_LABELS.get(key, key), message) for key, message in over.items())),
            status=400)
    old_type, _, old_subtype = request.POST.get("layout", "").partition("|")
    card_type, subtype = form.card_type()
    redrawn: tuple[str, ...] = ()
    if (card_type or "") != old_type:
        redrawn = REDRAWN_ON_TYPE
    elif (subtype or "") != old_subtype:
        redrawn = REDRAWN_ON_SUBTYPE
    regions = form.regions()
    return render(request, "edits/_preview.html", {
        "form": form, "set": card_set, "card": card, "face": _face_data_url(form, card_set),
        "redrawn": [regions[name] for name in redrawn],
    })


def _form_target(request: HttpRequest) -> tuple[CardSet, Card | None, dict[str, Any], str]:
    """The card (a change) or the set (a new card) a posted form is about."""
    card_id = request.POST.get("card", "")
    if card_id:
        card = get_object_or_404(Card.objects.select_related("set"), id=card_id)
        return card.set, card, card.as_data(), CHANGE
    card_set = get_object_or_404(CardSet, code__iexact=request.POST.get("set", ""))
    return card_set, None, blank_card(card_set.code, card_set.official), NEW_CARD


def _face_data_url(form: CardForm, card_set: CardSet) -> str:
    """The face drawn from the form's values (what can be read of them; the rest unknown), as
    a data: URL of a WebP: no second request, nothing stored."""
    data = {**form.base, **form.lenient_values()}
    data["id"] = data.get("id") or f"{card_set.code.lower()}-preview"
    data["name"] = data.get("name") or "Card name"
    face = render_face(data).resize(rendition_size(PREVIEW_WIDTH), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    face.save(buffer, "WEBP", quality=80, method=2)  # 15 ms where the default takes ~70
    return "data:image/webp;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
