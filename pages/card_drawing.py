"""The social card's picture: a 1200x630 PNG with a title, the site's name and a line below (an
article's date), in the site's light colours. Pillow only, no Django: the benchmark's floor draws
the same cards with it (bench/floor.py).

The fonts are Noto's, from pinned packages (requirements.txt), never the system's: Noto Sans for
Latin, Greek and Cyrillic, then, for a character it lacks, the first of the scripts' Noto Sans
faces, Noto Sans CJK, Noto Sans Symbols and Noto Emoji (monochrome) that has it. The same title,
site and date give the same bytes: Pillow draws with fixed fonts and sizes and writes a PNG with
fixed settings and no metadata (no time).

A card is drawn in full colour, then written as a palette PNG (PALETTE): every pixel of a card is
the background, the rule's colour, or a step between the background and one of the three text
colours (the glyphs' anti-aliased edges). Encoding 256 colours costs a fifth of encoding full
colour and gives half the bytes; no pixel moves by more than 5 of 255 in any channel.
"""

import functools
import hashlib
import importlib.metadata
import io
import unicodedata
from pathlib import Path

import manimgx_fonts
import manimgx_fonts_cjk
from django.utils import formats, translation
from fontTools.ttLib import TTCollection, TTFont
from PIL import Image, ImageColor, ImageDraw, ImageFont, features

WIDTH, HEIGHT = 1200, 630
MARGIN = 80
# pages/static/pages/site.css, light theme: --bg, --fg, --muted, --accent, --line.
BG, FG, MUTED, ACCENT, LINE = "#fcfcfd", "#14171c", "#586070", "#2357d4", "#e3e6eb"
TITLE_SIZE, TITLE_LINES, TITLE_LEADING = 64, 4, 1.2
SMALL_SIZE = 34
ELLIPSIS = "…"
# Steps between the background and each text colour in the palette (3 x 64 + 2 colours).
EDGE_STEPS = 64
# Marks that choose how a neighbour is drawn (emoji presentation, joiners): no glyph of their own.
INVISIBLE = {"\ufe0e", "\ufe0f", "\u200d"}

_FONTS = Path(manimgx_fonts.__file__).parent
_SCRIPTS = [
    "Arabic", "Armenian", "Bengali", "Devanagari", "Ethiopic", "Georgian", "Gujarati", "Gurmukhi",
    "Hebrew", "Kannada", "Khmer", "Lao", "Malayalam", "Myanmar", "Oriya", "Sinhala", "Tamil",
    "Telugu", "Thai",
]  # fmt: skip
# (file, index in a collection): the first that has a character draws it.
FONT_FILES = [
    (_FONTS / "NotoSans[wght].ttf", None),
    *((_FONTS / f"NotoSans{script}[wght].ttf", None) for script in _SCRIPTS),
    (Path(manimgx_fonts_cjk.__file__).parent / "NotoSansCJK-VF.otf.ttc", 0),
    (_FONTS / "NotoSansSymbols[wght].ttf", None),
    (_FONTS / "NotoEmoji[wght].ttf", None),
]


@functools.cache
def characters(index):
    """The code points font `index` of FONT_FILES draws (read once, when first needed)."""
    path, number = FONT_FILES[index]
    font = TTCollection(path, lazy=True).fonts[number] if number is not None else TTFont(path, lazy=True)
    return frozenset(font.getBestCmap())


@functools.cache
def font(index, size, weight):
    """Font `index` of FONT_FILES at `size` px, its weight axis set to `weight` (within its range)."""
    path, number = FONT_FILES[index]
    loaded = ImageFont.truetype(str(path), size, index=number or 0)
    axes = loaded.get_variation_axes()
    if axes:
        loaded.set_variation_by_axes([
            min(max(weight, axis["minimum"]), axis["maximum"]) if axis["name"] in (b"Weight", "Weight")
            else axis["default"]
            for axis in axes
        ])  # fmt: skip
    return loaded


def font_for(character):
    """The index in FONT_FILES of the first font with `character` (Noto Sans, whose missing-glyph
    box shows the gap, when none has it)."""
    code = ord(character)
    for index in range(len(FONT_FILES)):
        if code in characters(index):
            return index
    return 0


def runs(text):
    """[(font index, text)]: `text` cut where the font that draws it changes."""
    found = []
    for character in text:
        if character in INVISIBLE:
            continue
        index = 0 if character.isspace() else font_for(character)  # Noto Sans's spaces
        if found and found[-1][0] == index:
            found[-1] = (index, found[-1][1] + character)
        else:
            found.append((index, character))
    return found


def width(text, size, weight):
    return sum(font(index, size, weight).getlength(run) for index, run in runs(text))


def draw_text(draw, xy, text, size, weight, fill):
    """Draw `text` with its left end on baseline point `xy`, each run in its own font."""
    x, y = xy
    for index, run in runs(text):
        face = font(index, size, weight)
        draw.text((x, y), run, font=face, fill=fill, anchor="ls")
        x += face.getlength(run)


def pieces(text):
    """The pieces a line may break between: words with their following space, and each character
    of a script written without spaces (CJK) on its own."""
    found, word = [], ""
    for character in text:
        wide = unicodedata.east_asian_width(character) in ("W", "F")
        if wide and word:
            found.append(word)
            word = ""
        word += character
        if wide or character.isspace():
            found.append(word)
            word = ""
    return [*found, word] if word else found


def wrap(text, size, weight, room, lines):
    """`text` in at most `lines` lines each at most `room` px wide; when it needs more, the last
    line ends with an ellipsis. A word too long for a line is cut where it reaches the edge."""
    done, line, queue, at = [], "", pieces(" ".join(text.split())), 0
    while at < len(queue):
        piece = queue[at]
        if width(line + piece.rstrip(), size, weight) <= room:
            line, at = line + piece, at + 1
            continue
        if not line:  # one piece wider than a line: its start fills this one
            cut = len(piece) - 1
            while cut > 1 and width(piece[:cut], size, weight) > room:
                cut -= 1
            line, queue[at] = piece[:cut], piece[cut:]
        done.append(line.rstrip())
        line = ""
        if len(done) == lines:
            break
    else:
        return [*done, line.rstrip()] if line.strip() else done
    last = done[-1]
    while last and width(last + ELLIPSIS, size, weight) > room:
        last = last[:-1]
    done[-1] = last.rstrip(" ,.;:-–—") + ELLIPSIS
    return done


@functools.cache
def palette():
    """The cards' palette image: the background, each text colour's EDGE_STEPS steps from it, the rule."""
    background = ImageColor.getrgb(BG)
    colours = [background]
    for text in (FG, ACCENT, MUTED):
        target = ImageColor.getrgb(text)
        colours += [
            tuple(round(b + (t - b) * step / EDGE_STEPS) for b, t in zip(background, target, strict=True))
            for step in range(1, EDGE_STEPS + 1)
        ]
    colours.append(ImageColor.getrgb(LINE))
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image


def dated(day, language=None):
    """An article's date as its page shows it and its card draws it, in `language` (by default
    the active one): 5 May 2026, 5 mai 2026, 2026年5月5日 (Django's DATE_FORMAT, settings'
    FORMAT_MODULE_PATH for English)."""
    with translation.override(language or translation.get_language()):
        return formats.date_format(day, "DATE_FORMAT")


def render(title, site_name, dated=""):
    """The card's PNG bytes. Titles and names are drawn on one line each (a line break or a tab in
    a title is a space, as the page's <h1> shows it; raqm refuses to lay out control characters)."""
    title, site_name = " ".join(title.split()), " ".join(site_name.split())
    image = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(image)
    room = WIDTH - 2 * MARGIN
    draw.rectangle((0, 0, WIDTH, 16), fill=ACCENT)
    draw_text(draw, (MARGIN, 120), site_name, SMALL_SIZE, 700, ACCENT)
    lines = wrap(title, TITLE_SIZE, 700, room, TITLE_LINES)
    leading = round(TITLE_SIZE * TITLE_LEADING)
    top = 150 + (TITLE_LINES - len(lines)) * leading // 2  # the lines centred in their box
    for number, line in enumerate(lines, 1):
        draw_text(draw, (MARGIN, top + number * leading), line, TITLE_SIZE, 700, FG)
    draw.line((MARGIN, 510, WIDTH - MARGIN, 510), fill=LINE, width=2)
    draw_text(draw, (MARGIN, 570), dated, SMALL_SIZE, 400, MUTED)
    out = io.BytesIO()
    # Faster than the default level: a few kilobytes more cost nothing to a network that fetches
    # the card once (bench/README.md, cards).
    image.quantize(palette=palette(), dither=Image.Dither.NONE).save(out, "PNG", compress_level=3)
    return out.getvalue()


@functools.cache
def drawer():
    """A hash of everything besides the text that decides a card's bytes: this module's code and
    the versions of Pillow, its text layout library and the font packages."""
    parts = [hashlib.sha256(Path(__file__).read_bytes()).hexdigest(), f"raqm {features.version('raqm')}"]
    for package in ("pillow", "manimgx-fonts", "manimgx-fonts-cjk", "fonttools"):
        parts.append(f"{package} {importlib.metadata.version(package)}")
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()
