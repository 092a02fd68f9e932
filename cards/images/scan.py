"""Checking an uploaded or imported card scan and re-encoding it as WebP renditions.

Pure Python (Pillow only, no Django): the app hands over the raw bytes and stores the returned
bytes. Every refusal is a :class:`ScanError` whose message says exactly what is wrong, so it
can be shown to the uploader or written to the import report as it is.

The checks run cheapest first and nothing is decoded before it is known to be safe:

1. the byte size (before Pillow sees the data);
2. the format, from the file header (JPEG, PNG or WebP only);
3. the pixel count and shape, from the header, before any pixel is decoded;
4. a full verification and decode, which catches truncated or corrupt files.

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
from collections.abc import Mapping
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


class ScanError(ValueError):
    """A scan was refused; the message says exactly why, in words for the uploader."""


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

    Raises :class:`ScanError` if the data is too big, not a JPEG/PNG/WebP image, has too many
    pixels, has an unusable shape, or is truncated or corrupt.
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

    _verify(data, kind)
    image = _open(data)  # verify() leaves the image unusable; the header was already checked
    try:
        image.load()
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ScanError(f"scan is truncated or corrupt: {exc}") from exc

    return renditions_from_image(_to_srgb(_oriented(image)))


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
