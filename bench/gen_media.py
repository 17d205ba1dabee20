"""The benchmark's media set: images of the sizes and kinds a portfolio has, for gen_content.py.

Mostly photos (JPEG, 800-2400 px wide, a tenth of them taken sideways: their EXIF orientation
turns them), then screenshots and diagrams (PNG), a few images narrower than the text column
(no variants) and a few SVGs. Encoding their variants has to cost what real images cost, so the
pixels are not flat: photos are crops of a few noisy, blurred compositions (about 1.5 bits a pixel
as JPEG at quality 85), screenshots are anti-aliased text lines and panels (about 2 bits a pixel
as PNG). Making each picture from scratch would take seconds per hundred; cropping shared
compositions keeps a set of 300 to a few seconds, and shapes of its own at random places make
every image's bytes different (the build's cache would otherwise make one set of variants for
two copies).

The same seed always gives the same bytes (with the same Pillow).
"""

import itertools
import math
import random
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFilter, ImageFont

# At S and L alike: a few hundred images. A smaller site gets about one per three items.
COUNT, SHARE = 300, 0.3
# One kind per image, in this order, round and round: the first few images of even a tiny set
# have every kind.
PATTERN = (
    "photo", "screenshot", "svg", "narrow", "photo", "diagram", "photo", "photo", "screenshot", "photo",
    "photo", "photo", "diagram", "photo", "photo", "screenshot", "photo", "photo", "narrow", "photo",
)  # fmt: skip
ASPECTS = (3 / 2, 4 / 3, 16 / 9)
MASTER = (2400, 1800)  # the largest photo fits in a crop of it
MASTERS = 3
JPEG_QUALITY = 85
SIDEWAYS = 0.1  # share of photos stored landscape with EXIF orientation 6 (shown portrait)
ORIENTATION = 0x0112

WORDS = (
    "build render cache index query model agent deploy schema stream token parser feed sitemap "
    "static content latency vector profile memory worker export"
).split()


@dataclass(frozen=True)
class Planned:
    path: str  # under media/
    alt: str


def count_for(items):
    """How many images a site of `items` projects and articles gets."""
    return min(COUNT, round(items * SHARE))


def noise(rng, size, mode="RGB"):
    return Image.frombytes(mode, size, rng.randbytes(size[0] * size[1] * len(mode)))


def master(rng):
    """A photo-like composition: a smooth colour field, soft shapes and grain, made at half size
    and enlarged (the detail of a downscaled camera picture)."""
    half = (MASTER[0] // 2, MASTER[1] // 2)
    image = noise(rng, (rng.randrange(3, 7), rng.randrange(3, 6))).resize(half, Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(image)
    for _ in range(40):
        x, y, r = rng.randrange(half[0]), rng.randrange(half[1]), rng.randrange(half[0] // 40, half[0] // 8)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(rng.randbytes(3)))
    image = image.filter(ImageFilter.BoxBlur(2))
    image = Image.blend(image, noise(rng, half), 0.2)
    return image.resize(MASTER, Image.Resampling.BILINEAR)


class Painter:
    """Makes the pixels; the compositions and text lines are made once, when first needed."""

    def __init__(self, rng):
        self.rng = rng
        self._masters = []

    def masters(self):
        while len(self._masters) < MASTERS:
            self._masters.append(master(self.rng))
        return self._masters

    def photo(self, width, height):
        rng = self.rng
        source = rng.choice(self.masters())
        x, y = rng.randrange(source.width - width + 1), rng.randrange(source.height - height + 1)
        image = source.crop((x, y, x + width, y + height))
        draw = ImageDraw.Draw(image)
        for _ in range(rng.randrange(2, 6)):
            x, y, r = rng.randrange(width), rng.randrange(height), rng.randrange(width // 30, width // 8)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(rng.randbytes(3)))
        return image

    def screenshot(self, width, height):
        """A page: a bar, text lines, panels, now and then a picture."""
        rng = self.rng
        dark = rng.random() < 0.3
        image = Image.new("RGB", (width, height), (30, 32, 36) if dark else (250, 250, 248))
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, width, 48), fill=tuple(rng.randbytes(3)))
        lines, ink = text_lines(), (215, 215, 215) if dark else (35, 35, 35)
        y = 72
        while y < height - 24:
            left = 24 + rng.choice((0, 0, 24, 48))
            roll = rng.random()
            if roll < 0.06:  # a picture
                bottom = min(height - 12, y + rng.randrange(80, 260))
                box = (left, y, rng.randrange(left + 100, width - 23), bottom)
                image.paste(self.photo(box[2] - box[0], box[3] - box[1]), box[:2])
                y = box[3] + 16
            elif roll < 0.14:  # a panel
                bottom = min(height - 12, y + rng.randrange(40, 160))
                fill = tuple(v // 3 + (20 if dark else 170) for v in rng.randbytes(3))
                draw.rounded_rectangle((left, y, width - 24, bottom), 8, fill=fill)
                y = bottom + 16
            else:
                line = rng.choice(lines)
                start = rng.randrange(line.width // 2)
                length = min(width - 24 - left, rng.randrange(width // 3, width))
                mask = line.crop((start, 0, start + length, line.height))
                image.paste(ink if rng.random() < 0.9 else tuple(rng.randbytes(3)), (left, y), mask)
                y += rng.choice((20, 20, 20, 28, 40))
        return image

    def diagram(self, width, height):
        """Boxes with labels joined by lines, on white, in a palette of 16 colours (as drawing
        tools export them; the build converts them to RGB before resizing)."""
        rng = self.rng
        image = Image.new("P", (width, height), 0)
        image.putpalette(b"\xff\xff\xff\x14\x14\x14" + bytes(128 + v // 2 for v in rng.randbytes(42)))
        draw = ImageDraw.Draw(image)
        labels, centres = word_masks(), []
        for _ in range(rng.randrange(5, 14)):
            x, y = rng.randrange(20, width - 220), rng.randrange(20, height - 120)
            box = (x, y, x + rng.randrange(140, 200), y + rng.randrange(50, 100))
            draw.rounded_rectangle(box, 12, fill=rng.randrange(2, 16), outline=1, width=3)
            image.paste(1, (x + 12, y + 12), rng.choice(labels))
            centres.append(((box[0] + box[2]) // 2, box[3]))
        for a, b in itertools.pairwise(centres):
            draw.line((a, b), fill=1, width=3)
        return image


@cache
def font():
    return ImageFont.load_default(size=15)  # the font Pillow ships: the same glyphs everywhere


@cache
def word_masks():
    """The words, without anti-aliasing: a palette image has no shades of its ink."""
    return [text_mask(word).point(lambda v: 255 if v > 127 else 0) for word in WORDS]


@cache
def text_lines():
    """A few long lines of anti-aliased text, cropped for every line of every screenshot (one
    paste a line: drawing the words each time would cost more than the rest of the image)."""
    rng = random.Random(0)
    return [text_mask(" ".join(rng.choice(WORDS) for _ in range(60))) for _ in range(8)]


def text_mask(text):
    left, top, right, bottom = font().getbbox(text)
    mask = Image.new("L", (right, bottom))
    ImageDraw.Draw(mask).text((0, 0), text, font=font(), fill=255)
    return mask


def svg(rng, width, height):
    shapes = "".join(
        f'<rect x="{rng.randrange(width - 120)}" y="{rng.randrange(height - 60)}" width="120" height="60" '
        f'rx="8" fill="#{rng.randbytes(3).hex()}" stroke="#333"/>\n'
        for _ in range(rng.randrange(6, 20))
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n{shapes}</svg>\n'
    ).encode()


def generate(folder, count, seed):
    """Write `count` images under folder (the content's media/); return them as Planned."""
    rng = random.Random(f"media-{seed}")
    painter = Painter(rng)
    planned = []
    for i in range(count):
        kind = PATTERN[i % len(PATTERN)]
        alt = " ".join(rng.choice(WORDS) for _ in range(4)).capitalize()
        if kind == "svg":
            path, width = f"diagrams/figure-{i:04d}.svg", rng.randrange(400, 1200)
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_bytes(svg(rng, width, width * 2 // 3))
            planned.append(Planned(path, alt))
            continue
        narrow = kind == "narrow"
        if narrow:
            kind = rng.choice(("photo", "screenshot"))
        width = rng.randrange(320, 720) if narrow else rng.randrange(800, 2401)
        height = math.floor(width / rng.choice(ASPECTS))
        image = getattr(painter, kind)(width, height)
        if kind == "photo":
            path, options = f"photos/photo-{i:04d}.jpg", {"quality": JPEG_QUALITY}
            if rng.random() < SIDEWAYS:
                exif = Image.Exif()
                exif[ORIENTATION] = 6
                options["exif"] = exif
        else:
            # Level 1, as screenshot tools write them: zlib's default would double the time here.
            path, options = f"{kind}s/{kind}-{i:04d}.png", {"compress_level": 1}
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        image.save(folder / path, **options)
        planned.append(Planned(path, alt))
    return planned
