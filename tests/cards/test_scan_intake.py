"""Hardened scan intake (cards.images.scan): bombs, polyglots, disguised types and metadata.

Every file here is generated in the test, small, and decoded nowhere but in the code under test.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Callable

import pytest
from PIL import ExifTags, Image, PngImagePlugin

from cards.images.scan import CheckedScan, ScanError, check_scan, make_renditions


def encode(image: Image.Image, fmt: str, **options: object) -> bytes:
    buf = io.BytesIO()
    image.save(buf, fmt, **options)
    return buf.getvalue()


def card(size: tuple[int, int] = (315, 440)) -> Image.Image:
    """A small card-shaped picture with some detail (a flat colour compresses to nothing)."""
    image = Image.linear_gradient("L").resize(size).convert("RGB")
    image.paste((180, 40, 30), (20, 20, size[0] // 2, size[1] // 3))
    return image


def zip_archive() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("payload.html", "<html><script>alert(1)</script></html>")
    return buf.getvalue()


def png_chunk(kind: bytes, payload: bytes) -> bytes:
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body))


def png_bomb(width: int, height: int) -> bytes:
    """A real, decodable greyscale PNG of ``width`` x ``height`` black pixels: a few kB."""
    compressor = zlib.compressobj(9)
    row = b"\x00" * (width + 1)  # filter byte + pixels
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", data)
            + png_chunk(b"IEND", b""))


def jpeg_claiming(width: int, height: int) -> bytes:
    """A small JPEG whose frame header (SOF0) is patched to claim ``width`` x ``height``."""
    data = bytearray(encode(card(), "JPEG", quality=80))
    sof = data.find(b"\xff\xc0")
    struct.pack_into(">HH", data, sof + 5, height, width)
    return bytes(data)


def insert_png_chunk(png: bytes, kind: bytes, payload: bytes) -> bytes:
    """``png`` with one more chunk right after IHDR (8 + 25 bytes in)."""
    return png[:33] + png_chunk(kind, payload) + png[33:]


def with_text(text: str) -> bytes:
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", text)
    return encode(card(), "PNG", pnginfo=info)


def gps_exif() -> Image.Exif:
    exif = Image.Exif()
    exif[ExifTags.Base.Make] = "Test Phone"
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "N"
    gps[ExifTags.GPS.GPSLatitude] = (51.0, 30.0, 12.5)
    gps[ExifTags.GPS.GPSLongitudeRef] = "W"
    gps[ExifTags.GPS.GPSLongitude] = (0.0, 7.0, 39.9)
    return exif


ZIP = zip_archive()
PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n"

# --- refused: (id, the file, the start of the message) ----------------------------------------

REFUSED: list[tuple[str, Callable[[], bytes], str]] = [
    # Decompression bombs: valid files that would decode to far more pixels than they weigh.
    ("png bomb 6000x6000", lambda: png_bomb(6000, 6000),
     "scan is 6000\u00d76000 = 36.0 megapixels; the limit is 25 megapixels"),
    ("jpeg header claiming 20000x20000", lambda: jpeg_claiming(20000, 20000),
     "scan is 400.0 megapixels; the limit is 25 megapixels"),  # past Pillow's own limit
    ("jpeg header claiming 7000x5000", lambda: jpeg_claiming(7000, 5000),
     "scan is 7000\u00d75000 = 35.0 megapixels"),
    # Polyglots: an image that is also another file.
    ("png + zip", lambda: encode(card(), "PNG") + ZIP,
     f"scan has {len(ZIP)} bytes of data after the end of its PNG image: a ZIP archive is "
     "appended to it"),
    ("jpeg + zip", lambda: encode(card(), "JPEG") + ZIP,
     f"scan has {len(ZIP)} bytes of data after the end of its JPEG image: a ZIP archive is "
     "appended to it"),
    ("webp + zip", lambda: encode(card(), "WEBP") + ZIP,
     f"scan has {len(ZIP)} bytes of data after the end of its WebP image: a ZIP archive is "
     "appended to it"),
    ("png + pdf", lambda: encode(card(), "PNG") + PDF,
     f"scan has {len(PDF)} bytes of data after the end of its PNG image: a PDF document is "
     "appended"),
    ("jpeg + unknown bytes", lambda: encode(card(), "JPEG") + b"hello, world",
     "scan has 12 bytes of data after the end of its JPEG image (another file appended"),
    ("zip in a private png chunk", lambda: insert_png_chunk(
        encode(card(), "PNG"), b"zaRc", zip_archive()),
     "scan hides another file: a ZIP archive inside its PNG metadata"),
    ("html in a png text chunk", lambda: with_text("<HTML><body>hi</body></HTML>"),
     "scan hides another file: an HTML page inside its PNG metadata"),
    ("pdf in a jpeg comment", lambda: encode(card(), "JPEG", comment=b"%PDF-1.4 %\xe2\xe3"),
     "scan hides another file: a PDF document inside its JPEG metadata"),
    ("script in webp xmp", lambda: encode(card(), "WEBP", xmp=b"<script>alert(1)</script>"),
     "scan hides another file: a script inside its WebP metadata"),
    # Types by content: the name a file was given plays no part.
    ("gif renamed card.jpg", lambda: encode(card().convert("P"), "GIF"),
     "scan is a GIF image; only JPEG, PNG or WebP are accepted"),
    ("html renamed card.png", lambda: b"<!doctype html><html><body>card</body></html>",
     "file is not an image (cannot identify image data)"),
    ("svg renamed card.png",
     lambda: b'<svg xmlns="http://www.w3.org/2000/svg" width="630" height="880"></svg>',
     "file is not an image (cannot identify image data)"),
    ("pdf renamed card.jpg", lambda: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n",
     "file is not an image (cannot identify image data)"),
    ("zip renamed card.webp", zip_archive, "file is not an image (cannot identify image data)"),
]


@pytest.mark.parametrize(("data", "message"), [(r[1], r[2]) for r in REFUSED],
                         ids=[r[0] for r in REFUSED])
def test_refused_upload_says_why(data: Callable[[], bytes], message: str) -> None:
    with pytest.raises(ScanError) as caught:
        check_scan(data())
    assert str(caught.value).startswith(message), str(caught.value)
    with pytest.raises(ScanError):  # the admin's path refuses the same files
        make_renditions(data())


def test_bomb_is_small_and_refused_before_its_pixels_are_decoded() -> None:
    bomb = png_bomb(6000, 6000)
    assert len(bomb) < 100_000  # 36 MP of pixels in a few kB
    with pytest.raises(ScanError, match="megapixels"):
        check_scan(bomb)


# --- accepted ---------------------------------------------------------------------------------

ACCEPTED: list[tuple[str, Callable[[], bytes]]] = [
    ("baseline jpeg", lambda: encode(card(), "JPEG", quality=85)),
    ("progressive jpeg", lambda: encode(card(), "JPEG", progressive=True, quality=85)),
    ("jpeg with restart markers", lambda: encode(card(), "JPEG", restart_marker_blocks=4)),
    ("jpeg padded with zeros", lambda: encode(card(), "JPEG") + b"\x00" * 64),
    ("phone mpo", lambda: encode(card(), "MPO", save_all=True,
                                 append_images=[card((160, 224))])),
    ("png with ordinary text", lambda: with_text("Scanned at 600 dpi")),
    ("animated png", lambda: encode(card(), "PNG", save_all=True,
                                    append_images=[card().rotate(180)])),
    ("webp with exif", lambda: encode(card(), "WEBP", exif=gps_exif().tobytes())),
    ("lossless webp", lambda: encode(card(), "WEBP", lossless=True)),
]


@pytest.mark.parametrize("data", [r[1] for r in ACCEPTED], ids=[r[0] for r in ACCEPTED])
def test_ordinary_files_are_accepted(data: Callable[[], bytes]) -> None:
    checked = check_scan(data())
    assert isinstance(checked, CheckedScan)
    assert checked.image.mode == "RGB"
    assert checked.image.size == (315, 440)
    assert checked.kind in {"JPEG", "PNG", "WebP"}


def test_gps_position_and_exif_are_stripped_by_re_encoding() -> None:
    upload = encode(card(), "JPEG", exif=gps_exif().tobytes())
    # The upload does carry a position...
    assert Image.open(io.BytesIO(upload)).getexif().get_ifd(ExifTags.IFD.GPSInfo)
    checked = check_scan(upload)
    assert "exif" not in checked.image.info
    assert not checked.image.getexif()
    # ...and no output does.
    for webp in make_renditions(upload).values():
        output = Image.open(io.BytesIO(webp))
        assert not output.getexif()
        assert "exif" not in output.info and "xmp" not in output.info
        assert b"Exif" not in webp and b"Test Phone" not in webp
        assert webp[12:16] == b"VP8 "  # the simple format: no room for metadata


def test_exif_orientation_is_applied_before_the_metadata_goes() -> None:
    stored = card().rotate(90, expand=True)  # landscape as stored by the camera
    exif = gps_exif()
    exif[ExifTags.Base.Orientation] = 6  # "turn 90 degrees clockwise to view"
    checked = check_scan(encode(stored, "JPEG", exif=exif.tobytes(), quality=95))
    assert checked.image.size == (315, 440)
    assert not checked.image.getexif()
    # The red block drawn at the top left is back at the top left.
    red, green, _ = checked.image.getpixel((60, 60))  # type: ignore[misc]
    assert red > 150 and green < 90
