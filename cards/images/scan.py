"""Checking an uploaded or imported card scan and re-encoding it as WebP renditions.

Pure Python (Pillow only, no Django): the app hands over the raw bytes and stores the returned
bytes. Every refusal is a :class:`ScanError` whose message says exactly what is wrong, so it
can be shown to the uploader or written to the import report as it is.

The checks run cheapest first and nothing is decoded before it is known to be safe:

1. the byte size (before Pillow sees the data);
2. the format, from the file's content (JPEG, PNG or WebP only; a file name or declared
   content type is never trusted);
3. the pixel count and shape, from the header, before any pixel is decoded (a decompression
   bomb is a few kilobytes that claim many megapixels: it is refused here);
4. the file's structure, walked segment by segment without decoding (:func:`_check_structure`):
   nothing may follow the image's end marker, and no segment outside the pixel data may carry
   the signature of another format. Such a *polyglot* is both a valid image and a ZIP, PDF or
   HTML file; the renditions would not carry it, but an upload that hides one is refused rather
   than silently cleaned;
5. a full verification and decode, which catches truncated or corrupt files.

EXIF (with its GPS position), XMP and ICC metadata never reach an output: the image is
re-encoded from its pixels, after the EXIF orientation has been applied and the colours
converted to sRGB. :func:`check_scan` returns that clean image (for finding the card and
reading it); :func:`make_renditions` returns its WebP renditions.

Decisions:

* Renditions always have the exact widths of :data:`RENDITIONS` so that pages can reserve the
  space before the image loads. A scan narrower than a rendition is scaled *up* for it (a
  scan must be at least ``MIN_WIDTH`` pixels wide, so that is at most about 5x, and
  only for ``normal``/``large``). Heights follow the scan's own aspect ratio: scans are never
  cropped or stretched.
* The scan's aspect ratio must be between ``MIN_ASPECT`` and ``MAX_ASPECT`` (height / width;
  a card is 88 / 63 = 1.40). This is not a taste check but a guard: without it a 100 x 25000
  strip, well under the pixel limit, would be enlarged into a 745 x 186250 rendition.
* Pillow's own decompression-bomb limit (``Image.MAX_IMAGE_PIXELS``, ~89 MP warning and
  ~179 MP error) is far above ours, so it is left alone: a process-wide setting must not be
  changed by an upload check. Our 25 MP check runs on the header before decoding; Pillow's
  ``DecompressionBombError`` (and its warning, when warnings are turned into errors) are
  still caught and reported as "too many pixels".
* Phone cameras often write JPEG files that Pillow identifies as ``MPO`` (a JPEG with extra
  preview frames); those are accepted as JPEG and the first frame is used. Only the first
  frame of an animated PNG or WebP is used.
* Colour: an embedded ICC profile is converted to sRGB before it is stripped, so that the
  colours do not shift; transparency is flattened on white; 16-bit greyscale is scaled to
  8 bits rather than clipped.
* Output is WebP (lossy, quality 82) without EXIF, ICC or XMP metadata.
"""

from __future__ import annotations

import io
import re
from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

RENDITIONS: Final[dict[str, int]] = {"small": 146, "normal": 488, "large": 745}
CARD_WIDTH_MM: Final = 63
CARD_HEIGHT_MM: Final = 88

MAX_BYTES: Final = 10 * 1024 * 1024
MAX_PIXELS: Final = 25_000_000
MIN_WIDTH: Final = RENDITIONS["small"]
MIN_ASPECT: Final = 0.5
MAX_ASPECT: Final = 2.5
WEBP_QUALITY: Final = 82

# Pillow format name -> the name used in messages. MPO is a multi-picture JPEG.
ACCEPTED_FORMATS: Final[Mapping[str, str]] = {
    "JPEG": "JPEG",
    "MPO": "JPEG",
    "PNG": "PNG",
    "WEBP": "WebP",
}

_EXIF_ORIENTATION: Final = 0x0112
_SWAPPING_ORIENTATIONS: Final = frozenset({5, 6, 7, 8})


# Signatures of formats a polyglot hides in an image, looked for outside the pixel data (in
# metadata segments and after the image's end). Short or common byte pairs (gzip, "MZ") are
# left out: by chance they occur in compressed metadata such as ICC profiles.
OTHER_FORMATS: Final[tuple[tuple[bytes, str], ...]] = (
    (b"PK\x03\x04", "a ZIP archive"),
    (b"PK\x01\x02", "a ZIP archive"),
    (b"PK\x05\x06", "a ZIP archive"),
    (b"%PDF-", "a PDF document"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\x7fELF", "a Linux program"),
    (b"<html", "an HTML page"),
    (b"<!doctype html", "an HTML page"),
    (b"<script", "a script"),
    (b"<svg", "an SVG image"),
    (b"<?php", "a PHP script"),
)


class ScanError(ValueError):
    """A scan was refused; the message says exactly why, in words for the uploader."""


@dataclass(frozen=True)
class CheckedScan:
    """A scan that passed every check, decoded: no metadata left in ``image``."""

    image: Image.Image  # RGB, sRGB, EXIF orientation applied, nothing else of the file kept
    kind: str  # "JPEG", "PNG" or "WebP"


def rendition_size(width: int) -> tuple[int, int]:
    """Width and height of a card image of the given width at the card ratio 63:88.

    The height is rounded down, so ``rendition_size(745) == (745, 1040)``, the size of a
    rendered face.
    """
    if width < 1:
        raise ValueError(f"width must be positive, not {width}")
    return width, width * CARD_HEIGHT_MM // CARD_WIDTH_MM


def make_renditions(data: bytes) -> dict[str, bytes]:
    """Check a scan and return ``{"small": webp, "normal": webp, "large": webp}``.

    Raises :class:`ScanError` as :func:`check_scan` does.
    """
    return renditions_from_image(check_scan(data).image)


def check_scan(data: bytes) -> CheckedScan:
    """Check an uploaded file and decode it into a clean RGB image.

    Raises :class:`ScanError` if the data is too big, not a JPEG/PNG/WebP image, has too many
    pixels, has an unusable shape, hides another file, or is truncated or corrupt.
    """
    if len(data) > MAX_BYTES:
        raise ScanError(_too_big_message(len(data)))
    if not data:
        raise ScanError("file is empty")

    image = _open(data)
    fmt = image.format or "unknown"
    if fmt not in ACCEPTED_FORMATS:
        raise ScanError(f"scan is a {fmt} image; only JPEG, PNG or WebP are accepted")
    kind = ACCEPTED_FORMATS[fmt]

    width, height = image.size
    _check_pixels(width, height)
    _check_shape(*_oriented_size(image))
    _check_structure(data, kind, frames=getattr(image, "n_frames", 1))

    _verify(data, kind)
    image = _open(data)  # verify() leaves the image unusable; the header was already checked
    try:
        image.load()
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ScanError(f"scan is truncated or corrupt: {exc}") from exc

    clean = _to_srgb(_oriented(image))
    clean.info.clear()  # nothing of the file (EXIF, GPS, XMP, ICC) travels with the pixels
    return CheckedScan(clean, kind)


def renditions_from_image(image: Image.Image) -> dict[str, bytes]:
    """Resize an RGB image to each width of :data:`RENDITIONS` and encode it as WebP.

    Shared by the scan checker and the rendered faces. The aspect ratio is kept; the image is
    scaled up when it is narrower than a rendition.
    """
    if image.mode != "RGB":
        image = image.convert("RGB")
    src_w, src_h = image.size
    out: dict[str, bytes] = {}
    for name, width in sorted(RENDITIONS.items(), key=lambda item: -item[1]):
        height = max(1, round(src_h * width / src_w))
        if (width, height) == image.size:
            resized = image.copy()
        else:
            resized = image.resize(
                (width, height), Image.Resampling.LANCZOS, reducing_gap=3.0
            )
        resized.info.clear()
        buf = io.BytesIO()
        resized.save(buf, "WEBP", quality=WEBP_QUALITY, method=4, exif=b"", xmp=b"")
        out[name] = buf.getvalue()
    return {name: out[name] for name in RENDITIONS}


def rendition_resized(webp: bytes, width: int) -> bytes:
    """A rendition ``width`` pixels wide drawn from a larger one's WebP bytes (the aspect
    ratio kept), encoded as the stored renditions are."""
    with Image.open(io.BytesIO(webp)) as source:
        image = source.convert("RGB")
    height = max(1, round(image.height * width / image.width))
    resized = image.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=3.0)
    buf = io.BytesIO()
    resized.save(buf, "WEBP", quality=WEBP_QUALITY, method=4, exif=b"", xmp=b"")
    return buf.getvalue()


def _too_big_message(size: int) -> str:
    mib = 1024 * 1024
    shown, limit = f"{size / mib:.1f} MB", f"{MAX_BYTES / mib:g} MB"
    if shown == f"{MAX_BYTES / mib:.1f} MB":  # just over: "10.0 MB; the limit is 10 MB"
        return f"scan is {size:,} bytes; the limit is {limit} ({MAX_BYTES:,} bytes)"
    return f"scan is {shown}; the limit is {limit}"


def _open(data: bytes) -> Image.Image:
    try:
        return Image.open(io.BytesIO(data))
    except UnidentifiedImageError as exc:
        raise ScanError("file is not an image (cannot identify image data)") from exc
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        # Pillow's own limit (far above ours) refused the header; its message has the count.
        match = re.search(r"\((\d+) pixels\)", str(exc))
        size = f"{int(match.group(1)) / 1e6:.1f} megapixels" if match else "far too large"
        raise ScanError(
            f"scan is {size}; the limit is {MAX_PIXELS // 1_000_000} megapixels"
        ) from exc
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ScanError(f"scan is truncated or corrupt: {exc}") from exc


def _check_pixels(width: int, height: int) -> None:
    pixels = width * height
    if pixels > MAX_PIXELS:
        raise ScanError(
            f"scan is {width}\u00d7{height} = {pixels / 1e6:.1f} megapixels; "
            f"the limit is {MAX_PIXELS // 1_000_000} megapixels"
        )


def _check_shape(width: int, height: int) -> None:
    if width < MIN_WIDTH:
        raise ScanError(
            f"scan is {width}\u00d7{height}; it must be at least {MIN_WIDTH} pixels wide"
        )
    aspect = height / width
    if not MIN_ASPECT <= aspect <= MAX_ASPECT:
        raise ScanError(
            f"scan is {width}\u00d7{height} (height/width {aspect:.2f}); a card scan must have "
            f"a height/width ratio between {MIN_ASPECT} and {MAX_ASPECT} "
            f"(a card is {CARD_HEIGHT_MM / CARD_WIDTH_MM:.2f})"
        )


def _orientation(image: Image.Image) -> int:
    """The EXIF orientation from the header (1 when absent or unreadable)."""
    try:
        value = image.getexif().get(_EXIF_ORIENTATION, 1)
    except (OSError, SyntaxError, ValueError, TypeError, KeyError):
        return 1
    return value if isinstance(value, int) else 1


def _oriented_size(image: Image.Image) -> tuple[int, int]:
    width, height = image.size
    if _orientation(image) in _SWAPPING_ORIENTATIONS:
        return height, width
    return width, height


# --- the file's structure: where the image ends, and what its metadata carries ---------------


def _check_structure(data: bytes, kind: str, *, frames: int = 1) -> None:
    """Refuse data after the image's end and other formats' signatures in its metadata.

    Walks the container only (no pixel is decoded). A file too damaged to walk is left to the
    decoder, whose message about truncation is the more useful one.
    """
    walk = {"JPEG": _jpeg_segments, "PNG": _png_segments, "WebP": _webp_segments}[kind]
    end = 0
    for segment, offset in walk(data, frames):
        end = offset
        found = _other_format(segment)
        if found:
            raise ScanError(f"scan hides another file: {found} inside its {kind} metadata")
    if end <= 0:
        return
    rest = data[end:]
    if rest.translate(None, b"\x00\xff"):  # padding of zeros or 0xFF is harmless
        found = _other_format(rest)
        what = f": {found} is appended to it" if found else " (another file appended to it?)"
        raise ScanError(
            f"scan has {len(rest):,} bytes of data after the end of its {kind} image{what}"
        )


def _other_format(chunk: bytes) -> str | None:
    lowered = chunk.lower()
    for signature, name in OTHER_FORMATS:
        if (lowered if signature.startswith(b"<") else chunk).find(signature) >= 0:
            return name
    return None


# Each walker yields (metadata payload, offset just past the image so far); the last offset is
# the image's end, or 0 if the walk could not finish (a truncated file).
Segments = Iterator[tuple[bytes, int]]


def _jpeg_segments(data: bytes, frames: int) -> Segments:
    """APPn and COM payloads of each JPEG frame (an MPO holds several, one after the other)."""
    pos = 0
    for frame in range(max(1, frames)):
        if frame and not data.startswith(b"\xff\xd8", pos):
            return  # the next frame is not where it should be: leave it to the decoder
        end = yield from _jpeg_frame(data, pos)
        if end <= 0:
            yield b"", 0
            return
        pos = end
        yield b"", pos


def _jpeg_frame(data: bytes, start: int) -> Generator[tuple[bytes, int], None, int]:
    """One JPEG stream from its SOI marker; returns the offset past its EOI (0 if none)."""
    size = len(data)
    pos = start + 2
    while pos + 1 < size:
        if data[pos] != 0xFF:
            return 0
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker == 0xD9:  # EOI
            return pos + 2
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:  # markers without a length
            pos += 2
            continue
        if pos + 4 > size:
            return 0
        length = int.from_bytes(data[pos + 2 : pos + 4], "big")
        if 0xE0 <= marker <= 0xEF or marker == 0xFE:  # APPn (EXIF, XMP, ICC...) and COM
            yield data[pos + 4 : pos + 2 + length], 0
        pos += 2 + length
        if marker == 0xDA:  # SOS: entropy-coded data runs to the next real marker
            pos = _after_entropy_data(data, pos)
            if pos < 0:
                return 0
    return 0


def _after_entropy_data(data: bytes, pos: int) -> int:
    while True:
        pos = data.find(b"\xff", pos)
        if pos < 0 or pos + 1 >= len(data):
            return -1
        following = data[pos + 1]
        if following == 0x00 or 0xD0 <= following <= 0xD7 or following == 0xFF:
            pos += 1  # stuffed byte, restart marker or fill: still inside the scan
            continue
        return pos


def _png_segments(data: bytes, frames: int) -> Segments:
    """Payloads of every chunk but the pixel data (IDAT, and fdAT of animated PNGs)."""
    pos = 8
    while pos + 12 <= len(data):
        length = int.from_bytes(data[pos : pos + 4], "big")
        kind = data[pos + 4 : pos + 8]
        payload_end = pos + 8 + length
        if payload_end + 4 > len(data):
            break
        if kind not in (b"IDAT", b"fdAT"):
            yield data[pos + 8 : payload_end], 0
        pos = payload_end + 4
        if kind == b"IEND":
            yield b"", pos
            return
    yield b"", 0


def _webp_segments(data: bytes, frames: int) -> Segments:
    """Payloads of the RIFF chunks that are not image data (EXIF, XMP, ICCP, unknown ones)."""
    end = min(len(data), 8 + int.from_bytes(data[4:8], "little"))
    pos = 12
    while pos + 8 <= end:
        kind = data[pos : pos + 4]
        length = int.from_bytes(data[pos + 4 : pos + 8], "little")
        if kind not in (b"VP8 ", b"VP8L", b"VP8X", b"ALPH", b"ANIM", b"ANMF"):
            yield data[pos + 8 : pos + 8 + length], 0
        pos += 8 + length + (length & 1)
    yield b"", end if pos >= end else 0


def _verify(data: bytes, kind: str) -> None:
    try:
        Image.open(io.BytesIO(data)).verify()
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ScanError(f"scan is truncated or corrupt ({kind}): {exc}") from exc


def _oriented(image: Image.Image) -> Image.Image:
    """Apply the EXIF orientation; a scan with broken EXIF is used as it is stored."""
    if _orientation(image) == 1:
        return image
    try:
        return ImageOps.exif_transpose(image)
    except (OSError, SyntaxError, ValueError, TypeError, KeyError):
        return image


def _to_srgb(image: Image.Image) -> Image.Image:
    """An 8-bit RGB image in sRGB, transparency flattened on white."""
    icc = image.info.get("icc_profile")
    if image.mode in ("I;16", "I;16L", "I;16B", "I;16N", "I"):
        # convert() would clip 16-bit values at 255 (a white card); scale them instead.
        image = image.convert("I").point(lambda v: v / 257, "L")
    if isinstance(icc, bytes) and icc and image.mode in ("RGB", "RGBA", "CMYK", "L", "LA"):
        image = _icc_to_srgb(image, icc)
    has_alpha = image.mode in ("RGBA", "LA", "PA", "La", "RGBa") or (
        image.mode in ("P", "L", "RGB") and "transparency" in image.info
    )
    if has_alpha:
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return image.convert("RGB")


def _icc_to_srgb(image: Image.Image, icc: bytes) -> Image.Image:
    alpha = image.getchannel("A") if image.mode in ("RGBA", "LA") else None
    base = image.convert("RGB" if image.mode == "RGBA" else "L") if alpha else image
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        converted = ImageCms.profileToProfile(
            base, source, ImageCms.createProfile("sRGB"), outputMode="RGB"
        )
    except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
        return image  # an unusable profile: keep the pixels as they are
    if converted is None:
        return image
    if alpha is not None:
        converted.putalpha(alpha)
    return converted
