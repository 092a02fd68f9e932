"""Scan checks and rendered card faces (cards.images): pure Python, no Django, no network."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import warnings
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image

from cards.card_data import CARD_KEYS
from cards.images import face
from cards.images.face import render_face, render_face_renditions
from cards.images.scan import MAX_BYTES, RENDITIONS, ScanError, make_renditions, rendition_size

ROOT = Path(__file__).resolve().parents[2]
CARD_RATIO = 88 / 63


# --- helpers ----------------------------------------------------------------------------------


def encode(image: Image.Image, fmt: str, **options: object) -> bytes:
    buf = io.BytesIO()
    image.save(buf, fmt, **options)
    return buf.getvalue()


def card_image(mode: str = "RGB", size: tuple[int, int] = (630, 880)) -> Image.Image:
    """A plain card-sized picture in ``mode``."""
    colour: object = {"RGB": (200, 60, 40), "RGBA": (200, 60, 40, 255), "L": 90, "P": 5,
                      "I;16": 30000, "CMYK": (0, 200, 200, 20)}[mode]
    return Image.new(mode, size, colour)  # type: ignore[arg-type]


def png_with_header(width: int, height: int) -> bytes:
    """A tiny PNG whose IHDR claims ``width`` x ``height``; its pixel data is nonsense, so
    it can only be refused from the header (decoding it would fail differently)."""

    def chunk(kind: bytes, payload: bytes) -> bytes:
        body = kind + payload
        return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def card(**values: object) -> dict[str, object]:
    """A card data object with every field unknown, official, then ``values``."""
    data: dict[str, object] = {key: None for key in CARD_KEYS}
    data.update(id="test-card", name="Test Card", set="WOF", official=True, sources=[])
    data.update(values)
    return data


def ink_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels darker than the ink threshold in ``box``: text drawn on the parchment."""
    grey = image.crop(box).convert("L")
    return sum(grey.histogram()[:90])


# --- scans: accepted --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "mode", "options"),
    [
        ("JPEG", "RGB", {"quality": 90}),
        ("JPEG", "CMYK", {}),
        ("PNG", "RGBA", {}),  # with an alpha channel
        ("PNG", "P", {}),
        ("PNG", "L", {}),
        ("PNG", "I;16", {}),  # 16-bit greyscale
        ("WEBP", "RGB", {"quality": 90}),
    ],
)
def test_accepted_scan_gives_three_webp_renditions(
    fmt: str, mode: str, options: dict[str, object]
) -> None:
    renditions = make_renditions(encode(card_image(mode), fmt, **options))

    assert list(renditions) == list(RENDITIONS)
    for name, width in RENDITIONS.items():
        image = decode(renditions[name])
        assert image.format == "WEBP"
        assert image.mode == "RGB"
        assert image.width == width
        assert image.height == round(880 * width / 630)
        assert image.height / image.width == pytest.approx(CARD_RATIO, rel=0.01)
        assert "exif" not in image.info and "icc_profile" not in image.info
        # A simple lossy WebP ("VP8 "): the extended format that carries EXIF/ICC/XMP is absent.
        assert renditions[name][12:16] == b"VP8 "


def test_sixteen_bit_grey_is_scaled_not_clipped() -> None:
    renditions = make_renditions(encode(card_image("I;16"), "PNG"))  # 30000 / 65535 = 46 %
    red, green, blue = decode(renditions["small"]).getpixel((70, 100))  # type: ignore[misc]
    assert 100 < red < 135 and red == green == blue


def test_transparency_is_flattened_on_white() -> None:
    clear = Image.new("RGBA", (630, 880), (255, 0, 0, 0))
    image = decode(make_renditions(encode(clear, "PNG"))["normal"])
    red, green, blue = image.getpixel((240, 340))  # type: ignore[misc]
    assert min(red, green, blue) > 245


def test_exif_orientation_is_applied_and_metadata_stripped() -> None:
    # Stored landscape with "rotate 90" in EXIF: a portrait card once turned.
    landscape = Image.new("RGB", (880, 630), (30, 120, 200))
    exif = Image.Exif()
    exif[0x0112] = 6
    exif[0x010F] = "Test Camera"
    renditions = make_renditions(encode(landscape, "JPEG", exif=exif.tobytes()))
    large = decode(renditions["large"])
    assert large.size == (745, round(880 * 745 / 630))
    assert not large.getexif()
    assert all(data[12:16] == b"VP8 " for data in renditions.values())


def test_multi_picture_jpeg_from_a_phone_is_accepted() -> None:
    frames = [card_image(), Image.new("RGB", (630, 880), (0, 0, 0))]
    data = encode(frames[0], "MPO", save_all=True, append_images=frames[1:])
    assert Image.open(io.BytesIO(data)).format == "MPO"
    assert decode(make_renditions(data)["small"]).width == 146


def test_small_scan_is_scaled_up_to_the_rendition_widths() -> None:
    renditions = make_renditions(encode(card_image(size=(200, 280)), "PNG"))
    assert decode(renditions["large"]).size == (745, 1043)


def test_rendition_size_follows_the_card_ratio() -> None:
    assert rendition_size(745) == (745, 1040)
    assert rendition_size(146) == (146, 203)
    with pytest.raises(ValueError):
        rendition_size(0)


# --- scans: refused ---------------------------------------------------------------------------


def _truncated_jpeg() -> bytes:
    data = encode(Image.linear_gradient("L").resize((630, 880)).convert("RGB"), "JPEG")
    return data[: len(data) // 2]


REFUSED: list[tuple[str, Callable[[], bytes], str]] = [
    ("gif", lambda: encode(card_image("P"), "GIF"),
     "scan is a GIF image; only JPEG, PNG or WebP are accepted"),
    ("bmp", lambda: encode(card_image(), "BMP"),
     "scan is a BMP image; only JPEG, PNG or WebP are accepted"),
    ("tiff", lambda: encode(card_image(), "TIFF"),
     "scan is a TIFF image; only JPEG, PNG or WebP are accepted"),
    ("text", lambda: b"name,type\nBowman,personality\n",
     "file is not an image (cannot identify image data)"),
    ("empty", lambda: b"", "file is empty"),
    ("12.4 MB", lambda: b"\xff\xd8\xff" + bytes(int(12.4 * 1024 * 1024)),
     "scan is 12.4 MB; the limit is 10 MB"),
    ("one byte over", lambda: bytes(MAX_BYTES + 1),
     "scan is 10,485,761 bytes; the limit is 10 MB (10,485,760 bytes)"),
    ("36 MP", lambda: png_with_header(6000, 6000),
     "scan is 6000\u00d76000 = 36.0 megapixels; the limit is 25 megapixels"),
    ("400 MP, past Pillow's own bomb limit", lambda: png_with_header(20000, 20000),
     "scan is 400.0 megapixels; the limit is 25 megapixels"),
    ("truncated jpeg", _truncated_jpeg, "scan is truncated or corrupt: image file is truncated"),
    ("too narrow", lambda: encode(card_image(size=(100, 140)), "PNG"),
     "scan is 100\u00d7140; it must be at least 146 pixels wide"),
    ("a strip, not a card", lambda: encode(card_image(size=(200, 1200)), "PNG"),
     "scan is 200\u00d71200 (height/width 6.00); a card scan must have a height/width ratio"),
]


@pytest.mark.parametrize(("data", "message"), [(r[1], r[2]) for r in REFUSED],
                         ids=[r[0] for r in REFUSED])
def test_refused_scan_names_the_problem(data: Callable[[], bytes], message: str) -> None:
    with pytest.raises(ScanError) as caught:
        make_renditions(data())
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)


def test_bomb_warning_raised_as_error_is_still_a_scan_error() -> None:
    # 100 MP is past Pillow's warning threshold: with warnings as errors (as under
    # ``-W error``), Pillow raises in Image.open, and that must still read "too many pixels".
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        with pytest.raises(ScanError, match=r"^scan is 100\.0 megapixels; the limit is 25"):
            make_renditions(png_with_header(10000, 10000))


def test_checks_leave_pillow_global_limits_alone() -> None:
    before = Image.MAX_IMAGE_PIXELS
    with pytest.raises(ScanError):
        make_renditions(png_with_header(6000, 6000))
    make_renditions(encode(card_image(), "PNG"))
    assert Image.MAX_IMAGE_PIXELS == before


# --- rendered faces ---------------------------------------------------------------------------

DEMO_TROOP = card(
    id="demo-templar", name="Templar of the Dawn", set="DEMO", number="7", rarity="uncommon",
    type="personality", subtype="troop", faction="kalim", abilities="E Worship. (F)3 Crusade.",
    quotation="The light does not ask permission.", race="Human", gender="Male",
    profession="Templar", offense=3, defense=4, cost_economic=1, cost_religious=3,
    cost_political=0, faction_influence=2, vitality=2, strength_economic=1,
    strength_religious=3, strength_political=0, unique=True, artist="Demo Artist",
    official=False,
)

# The six types and an unknown one, with the subtypes and factions that change the drawing.
FACES: list[tuple[str | None, str | None, str | None]] = [
    ("structure", "general", None),
    ("structure", "wall", None),
    ("personality", "troop", "kalim"),
    ("personality", None, "mosfin"),
    ("item", "shield", None),
    ("invocation", "kalim", None),
    ("event", "battle", None),
    ("wanderer", None, None),
    (None, None, "guild"),
]


@pytest.mark.parametrize(("card_type", "subtype", "faction"), FACES)
def test_face_of_every_type_is_a_card_sized_rgb_image(
    card_type: str | None, subtype: str | None, faction: str | None
) -> None:
    image = render_face(card(type=card_type, subtype=subtype, faction=faction, rarity="common"))
    assert image.size == (745, 1040)
    assert image.mode == "RGB"


def test_face_of_a_card_with_every_field_unknown() -> None:
    image = render_face({key: None for key in CARD_KEYS})
    assert image.size == (745, 1040)
    # Nothing at all, not even the keys, is fine too.
    assert render_face({}).size == (745, 1040)


@pytest.mark.parametrize(
    "values",
    [
        # Line breaks, tabs and control characters in one-line fields.
        {"name": "Line\nbreak\tand\x00control\x1b", "race": "a\r\nb", "artist": "\u200b",
         "quotation": "one\ntwo", "set": "W\nOF"},
        # Wrong types and values: drawn as unknown, never a crash.
        {"type": "dragon", "subtype": "wyrm", "faction": "elves", "offense": "3", "unique": "yes",
         "abilities": 42, "vitality": True, "cost_economic": 2.5},
        # Numbers at and past the importer's bounds.
        {"offense": -20, "defense": 99, "cost_political": 99, "bounty": 10**9},
        # Very long one-line fields are cut with an ellipsis.
        {"name": "Long " * 800, "race": "Elf " * 500, "artist": "A" * 4000},
        # Letters DejaVu has, and some it has not.
        {"name": "\u03a9\u03bc\u03ad\u03b3\u03b1 \U0001f409 "
                 "\u0627\u0644\u0639\u0631\u0628\u064a\u0629",
         "abilities": "\U0001f409 " * 60},
    ],
    ids=["whitespace-and-controls", "wrong-types", "extreme-numbers", "long-fields",
         "scripts-and-emoji"],
)
def test_face_survives_odd_values(values: dict[str, object]) -> None:
    assert render_face(card(**{"type": "personality", **values})).size == (745, 1040)


def test_unknown_is_drawn_as_a_question_mark_never_as_zero() -> None:
    unknown = card(type="personality", faction="kalim")
    zero = card(type="personality", faction="kalim", offense=0, defense=0, cost_economic=0)
    assert face._stats(face._CardView(unknown))[0][1] is None
    assert face._shown(None) == "?"
    assert face._shown(0) == "0"
    assert render_face(unknown).tobytes() != render_face(zero).tobytes()


@pytest.mark.parametrize(
    ("values", "line"),
    [
        ({"type": "personality", "subtype": "troop", "faction": "kalim"},
         "Personality \u2014 Troop \u00b7 The Glory of Kalim"),
        # The rulebook's rule: a personality with offense and defense 0 is a citizen.
        ({"type": "personality", "offense": 0, "defense": 0, "faction": "mosfin"},
         "Personality \u2014 Citizen \u00b7 House Mosfin"),
        ({"type": "personality"}, "Personality \u00b7 Faction ?"),
        ({"type": "structure", "subtype": "stronghold"}, "Structure \u2014 Stronghold"),
        ({"type": "event", "subtype": "interrupt"}, "Event \u2014 Interrupt"),
        ({"type": None}, "Type unknown"),
    ],
)
def test_type_line(values: dict[str, object], line: str) -> None:
    assert face._type_line(face._CardView(card(**values))) == line


@pytest.mark.parametrize(
    ("values", "detail"),
    [
        ({"type": "personality", "race": "Human", "gender": "Male"},
         "Human \u00b7 Male \u00b7 Profession ?"),
        ({"type": "wanderer", "race": "Troll"}, "Troll \u00b7 Gender ?"),
        ({"type": "invocation", "strength_religious": 3}, "Requires religious strength 3"),
        ({"type": "event"}, "Requires economic/military strength ?"),
        ({"type": "structure"}, ""),
    ],
)
def test_detail_line(values: dict[str, object], detail: str) -> None:
    assert face._detail_line(face._CardView(card(**values))) == detail


@pytest.mark.parametrize(
    ("values", "gems"),
    [
        ({"type": "personality", "cost_religious": 2},
         [("economic", None, "circle"), ("religious", 2, "circle"),
          ("political", None, "circle")]),
        ({"type": "structure", "cost_generic": 3}, [("generic", 3, "circle")]),
        ({"type": "invocation", "strength_religious": 2},
         [("economic", None, "circle"), ("religious", None, "circle"),
          ("political", None, "circle"), ("religious", 2, "diamond")]),
        ({"type": "event", "strength_economic": 1, "cost_economic": 0},
         [("economic", 0, "circle"), ("religious", None, "circle"),
          ("political", None, "circle"), ("economic", 1, "diamond")]),
        ({"type": "wanderer"}, []),
        ({"type": None}, []),
        ({"type": None, "cost_generic": 2}, [("generic", 2, "circle")]),
    ],
)
def test_cost_gems(values: dict[str, object], gems: list[tuple[str, int | None, str]]) -> None:
    assert face._gems(face._CardView(card(**values))) == gems


@pytest.mark.parametrize(
    ("values", "labels"),
    [
        ({"type": "personality"}, ["OFF", "DEF", "VIT", "FI", "ECON", "RELIG", "POLIT"]),
        ({"type": "wanderer"}, ["OFF", "DEF", "VIT", "AGG", "BOUNTY"]),
        ({"type": "structure", "subtype": "wall"}, ["OFF", "DEF", "BLOCK"]),
        ({"type": "structure", "subtype": "general"}, ["RES"]),
        ({"type": "invocation"}, []),  # the requirement is a gem, not a stat box
        ({"type": None, "vitality": 4}, ["VIT"]),  # unknown type: only what is known
    ],
)
def test_stat_boxes(values: dict[str, object], labels: list[str]) -> None:
    assert [s.label for s, _ in face._stats(face._CardView(card(**values)))] == labels


def test_face_is_deterministic() -> None:
    first = encode(render_face(DEMO_TROOP), "PNG")
    assert encode(render_face(dict(DEMO_TROOP)), "PNG") == first
    # The texture follows the id, so two cards do not share one.
    other = render_face({**DEMO_TROOP, "id": "demo-templar-2"})
    assert other.tobytes() != decode(first).tobytes()


def test_long_ability_text_fits_in_the_text_box() -> None:
    clause = "Collect economic influence from the city's influence pool up to bearer's strength."
    long_text = " ".join([f"E Worship. {clause}"] * 45)[:4000]
    image = render_face(card(type="personality", faction="guild", abilities=long_text,
                             quotation="So much to say."))
    left, top, right, bottom = (round(v) for v in face.TEXT_BOX)
    middle = (top + bottom) // 2
    # The text shrinks (and is finally cut) to fill the box from top to bottom.
    assert ink_pixels(image, (left + 4, top + 4, right - 4, top + 30)) > 500
    assert ink_pixels(image, (left + 4, bottom - 30, right - 4, bottom - 4)) > 500
    assert ink_pixels(image, (left + 4, top + 4, right - 4, middle)) > 3000


def test_untranscribed_official_text_and_demo_labels_are_drawn() -> None:
    official = render_face(card(type="item"))
    demo = render_face(card(type="item", official=False))
    written = render_face(card(type="item", abilities="Bearer gains +1 offense."))
    footer = tuple(round(v) for v in face.FOOTER)
    text_box = tuple(round(v) for v in face.TEXT_BOX)
    # "Text not yet transcribed" is drawn for the official card only.
    assert official.crop(text_box).tobytes() != demo.crop(text_box).tobytes()  # type: ignore[arg-type]
    assert ink_pixels(written, text_box) > 0  # type: ignore[arg-type]
    # "FICTIONAL DEMO CARD" makes the footers differ.
    assert official.crop(footer).tobytes() != demo.crop(footer).tobytes()  # type: ignore[arg-type]


def test_unique_mark_is_drawn_in_the_name_bar() -> None:
    name_bar = tuple(round(v) for v in face.NAME_BAR)
    plain = render_face(card(type="event", unique=None)).crop(name_bar)  # type: ignore[arg-type]
    unique = render_face(card(type="event", unique=True)).crop(name_bar)  # type: ignore[arg-type]
    assert plain.tobytes() != unique.tobytes()


def test_face_renditions_have_the_scan_widths() -> None:
    renditions = render_face_renditions(DEMO_TROOP)
    assert list(renditions) == list(RENDITIONS)
    for name, width in RENDITIONS.items():
        image = decode(renditions[name])
        assert image.format == "WEBP"
        assert image.size == (width, round(1040 * width / 745))


@pytest.fixture
def no_fonts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(face, "FONT_DIR", tmp_path / "no-fonts-here")
    face._font.cache_clear()
    face._width.cache_clear()
    yield
    face._font.cache_clear()
    face._width.cache_clear()


@pytest.mark.usefixtures("no_fonts")
def test_face_renders_without_the_dejavu_fonts() -> None:
    assert render_face(DEMO_TROOP).size == (745, 1040)


def test_images_package_does_not_import_django() -> None:
    code = (
        "import sys, cards.images.scan, cards.images.face; "
        "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert result.returncode == 0, "cards.images must not import Django"
