"""Media: the files under the content folder's media/, published at /media/ with the same paths.

At import each new or changed file is hashed and, if it is an image, measured (width and height
for every <img>, from the pixels or an SVG's width/height or viewBox). Raster images wider than the
text column get resized WebP variants for `srcset`, made with Pillow on every core and kept in a
cache folder (settings.MEDIA_CACHE_DIR) named by content hash: an unchanged image costs a stat on
the next import, and a cache shared by several builds never makes the same file twice.

Variants are published under /media/_v/, a folder no content file can have (a media path's
segments start with a letter or a digit).
"""

import hashlib
import os
import re
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from django.conf import settings
from PIL import Image, ImageOps, UnidentifiedImageError

from portfolio.workers import release_memory

from .files import entry_problem, read
from .models import MediaFile
from .rules import MEDIA_SEGMENT_RE, ContentError, ContentInvalid

FOLDER = "media"
URL = "/media/"
VARIANTS_FOLDER = "_v"
# Pillow reads these; the first four it can also resize well (GIF and AVIF are published as is).
RASTER = {".png", ".jpg", ".jpeg", ".webp", ".gif", ".avif"}
RESIZABLE = {".png", ".jpg", ".jpeg", ".webp"}
# The text column is 46rem less its padding (~700 CSS px): wider images get variants at these
# widths (1x to 2x screens); the original stays the largest candidate of srcset.
LAYOUT_WIDTH = 720
VARIANT_WIDTHS = (480, 720, 1080, 1440)
VARIANT_QUALITY = 80
# Part of every variant's name, and of importer.IMPORT_VERSION (bodies show the names): bump it
# when the resizing or the encoding changes.
VARIANT_VERSION = "2"

SVG_TAG = re.compile(rb"<svg\b[^>]*>", re.IGNORECASE)
SVG_ATTR = re.compile(rb"""\s([a-zA-Z:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
SVG_LENGTH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*$")


@dataclass(frozen=True)
class Media:
    """One published media file, as pages and the build need it."""

    path: str  # under media/: "alpha/cover.png"
    content_hash: str
    width: int | None = None
    height: int | None = None
    variants: tuple = ()  # widths of the resized WebP copies

    @property
    def src(self):
        return URL + self.path

    @property
    def is_raster(self):
        return Path(self.path).suffix.lower() in RASTER

    @property
    def variant_key(self):
        """What names its variants: its bytes and how they are resized ("" without variants)."""
        if not self.variants:
            return ""
        return hashlib.sha256(f"{VARIANT_VERSION}:{self.content_hash}".encode()).hexdigest()[:20]

    def variant_names(self):
        """{width: file name} of the variants, in the cache and under /media/_v/."""
        return {width: variant_name(self.variant_key, width) for width in self.variants}

    @property
    def srcset(self):
        if not self.variants:
            return ""
        names = self.variant_names()
        candidates = [f"{URL}{VARIANTS_FOLDER}/{names[width]} {width}w" for width in self.variants]
        return ", ".join([*candidates, f"{self.src} {self.width}w"])

    def as_image(self, alt):
        """What a page needs to show it (stored on the item at import)."""
        image = {"path": self.path, "src": self.src, "alt": alt, "raster": self.is_raster}
        if self.width:
            image.update(width=self.width, height=self.height)
        if self.variants:
            image["srcset"] = self.srcset
        return image


def is_ignored(name):
    """Hidden files and editor leftovers, as in projects/ and articles/."""
    return name.startswith(".") or name.endswith("~")


def discover(content_dir):
    """({path under media/: absolute path}, [problems]) of every file under media/. Links are
    followed only to files inside the content folder (files.entry_problem), never to folders,
    which could lead back up the tree."""
    content_dir = Path(content_dir).resolve()
    root = content_dir / FOLDER
    found, errors = {}, []
    if not root.is_dir():
        return found, errors

    def unreadable(exc):
        rel = Path(exc.filename).relative_to(content_dir).as_posix()
        errors.append(ContentError(rel + "/", "folder", f"cannot be read: {exc.strerror}"))

    for folder, dirs, names in os.walk(root, onerror=unreadable):
        rel_folder = Path(folder).relative_to(root).as_posix()
        prefix = "" if rel_folder == "." else rel_folder + "/"
        for name in list(dirs):
            if is_ignored(name):
                dirs.remove(name)
            elif not MEDIA_SEGMENT_RE.fullmatch(name):
                dirs.remove(name)
                errors.append(bad_name(f"{FOLDER}/{prefix}{name}/"))
            elif os.path.islink(os.path.join(folder, name)):
                dirs.remove(name)
                message = "a symbolic link to a folder, not followed: link the files instead"
                errors.append(ContentError(f"{FOLDER}/{prefix}{name}/", "folder", message))
        for name in names:
            if is_ignored(name):
                continue
            path = os.path.join(folder, name)
            if not MEDIA_SEGMENT_RE.fullmatch(name):
                errors.append(bad_name(f"{FOLDER}/{prefix}{name}"))
            elif problem := entry_problem(Path(path), content_dir, expected="a media file"):
                errors.append(ContentError(f"{FOLDER}/{prefix}{name}", "file", problem))
            else:
                found[prefix + name] = path
    return found, errors


def bad_name(rel):
    message = "expected names of letters, digits, '.', '_' or '-', starting with a letter or a digit"
    return ContentError(rel, "file name", message)


class InvalidImage(Exception):
    pass


def measure(raw, path):
    """(width, height, resizable) of an image file; (None, None, False) for other files."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        return (*svg_size(raw), False)
    if suffix not in RASTER:
        return None, None, False
    try:
        with Image.open(BytesIO(raw)) as image:
            width, height = image.size
            if orientation(image, raw) in (5, 6, 7, 8):  # shown turned a quarter
                width, height = height, width
            animated = getattr(image, "is_animated", False)
    except UnidentifiedImageError:
        message = f"expected a {suffix[1:].upper()} image; Pillow does not recognise the file"
        raise InvalidImage(message) from None
    except (OSError, Image.DecompressionBombError, ValueError) as exc:
        raise InvalidImage(f"expected a {suffix[1:].upper()} image Pillow can read; {exc}") from None
    return width, height, suffix in RESIZABLE and not animated


def orientation(image, raw):
    """The image's EXIF orientation (0x0112), None if it has none. A PNG's getexif() decodes
    every pixel first, in case metadata follows them (a large site's import would pay it before
    its workers start): when nothing but image data follows, what opening
    the file read is all the metadata there is."""
    if image.format == "PNG" and png_ends_with_data(raw):
        exif = Image.Image.getexif(image)  # PngImageFile.getexif() without its load()
    else:  # truncated, or chunks after the data: Pillow reads all of it (and names what is wrong)
        exif = image.getexif()
    return exif.get(0x0112)


def png_ends_with_data(raw):
    """Whether a PNG's chunks are whole and, after the first image data (IDAT), are only image
    data and the end (IEND)."""
    position, in_data = 8, False
    while position + 12 <= len(raw):
        kind = raw[position + 4 : position + 8]
        position += 12 + int.from_bytes(raw[position : position + 4], "big")
        if kind == b"IEND":
            return in_data and position == len(raw)
        if kind == b"IDAT":
            in_data = True
        elif in_data:
            return False
    return False


def svg_size(raw):
    """An SVG's size in CSS pixels: its width and height, else its viewBox's."""
    tag = SVG_TAG.search(raw[:65536])
    if tag is None:
        raise InvalidImage("expected an SVG file with an <svg> element near its start")
    attrs = {m[1].decode().lower(): (m[2] or m[3] or b"").decode() for m in SVG_ATTR.finditer(tag[0])}
    width, height = (SVG_LENGTH.fullmatch(attrs.get(name, "")) for name in ("width", "height"))
    if width and height:
        return round(float(width[1])), round(float(height[1]))
    box = attrs.get("viewbox", "").replace(",", " ").split()
    try:
        box_width, box_height = float(box[2]), float(box[3])
    except (IndexError, ValueError):
        box_width = box_height = 0
    if box_width <= 0 or box_height <= 0:
        raise InvalidImage("expected an SVG with width and height in pixels, or a viewBox, to size it")
    return round(box_width), round(box_height)


def variant_widths(width, resizable):
    if not resizable or not width or width <= LAYOUT_WIDTH:
        return ()
    return tuple(w for w in VARIANT_WIDTHS if w < width)


class MediaSync:
    """The media folder against the database: built before the items are parsed (their images
    and links are resolved against `index`), written in the import's transaction (`write`).
    The variants missing from the cache (`variant_jobs`) are made by the importer's workers,
    alongside the parsing (`make_variants`, `variant_problems`)."""

    def __init__(self, content_dir, full=False):
        self.content_dir = Path(content_dir)
        self.files, self.errors = discover(self.content_dir)
        stored = {row[0]: row for row in MediaFile.objects.values_list(
            "path", "content_hash", "source_mtime_ns", "source_size", "width", "height", "variants",
            "variant_key",
        )}  # fmt: skip
        self.index = {}  # {path: Media} of every published file
        self.rows, self.touched = [], []
        self.rekeyed = []  # unchanged images whose variants are now named otherwise (VARIANT_VERSION)
        for path, absolute in self.files.items():
            try:
                stat = os.stat(absolute)
            except OSError as exc:  # gone or unreadable since discover()
                self.errors.append(
                    ContentError(f"{FOLDER}/{path}", "file", f"cannot be read: {exc.strerror}")
                )
                continue
            known = stored.get(path)
            if known and not full and known[2:4] == (stat.st_mtime_ns, stat.st_size):
                self.keep(Media(path, known[1], known[4], known[5], tuple(known[6])), known[7])
                continue
            try:
                raw, _ = read(
                    absolute, f"{FOLDER}/{path}", settings.MEDIA_MAX_FILE_BYTES, "MEDIA_MAX_FILE_BYTES"
                )
            except ContentInvalid as exc:
                self.errors += exc.errors
                continue
            content_hash = hashlib.sha256(raw).hexdigest()
            if known and known[1] == content_hash:
                self.keep(Media(path, known[1], known[4], known[5], tuple(known[6])), known[7])
                self.touched.append((path, stat))
                continue
            try:
                width, height, resizable = measure(raw, path)
            except InvalidImage as exc:
                self.errors.append(ContentError(f"{FOLDER}/{path}", "image", str(exc)))
                continue
            media = Media(path, content_hash, width, height, variant_widths(width, resizable))
            self.index[path] = media
            self.rows.append(MediaFile(
                path=path, source_path=f"{FOLDER}/{path}", content_hash=content_hash,
                source_mtime_ns=stat.st_mtime_ns, source_size=stat.st_size,
                width=width, height=height, variants=list(media.variants), variant_key=media.variant_key,
            ))  # fmt: skip
        # Files whose bytes changed or that are gone: whatever references them is resolved again.
        self.deleted = [path for path in stored if path not in self.files]
        self.changed = {row.path for row in self.rows if row.path in stored} | set(self.deleted)

    def keep(self, media, stored_key):
        self.index[media.path] = media
        if media.variant_key != stored_key:
            self.rekeyed.append(media)

    def write(self):
        """Store what changed (the caller holds the transaction)."""
        for media in self.rekeyed:
            MediaFile.objects.filter(path=media.path).update(variant_key=media.variant_key)
        gone = self.deleted + [row.path for row in self.rows]
        for start in range(0, len(gone), 500):
            MediaFile.objects.filter(path__in=gone[start : start + 500]).delete()
        MediaFile.objects.bulk_create(self.rows, batch_size=500)
        for path, stat in self.touched:
            MediaFile.objects.filter(path=path).update(
                source_mtime_ns=stat.st_mtime_ns, source_size=stat.st_size
            )

    def variant_jobs(self):
        """A make_variants() job for every image with variants missing from the cache."""
        folder = Path(settings.MEDIA_CACHE_DIR)
        jobs = []
        for media in self.index.values():
            missing = [(w, n) for w, n in media.variant_names().items() if not (folder / n).exists()]
            if missing:
                jobs.append((self.files[media.path], missing, str(folder)))
        if jobs:
            folder.mkdir(parents=True, exist_ok=True)
        return jobs

    def variant_problems(self, jobs, results):
        """The named errors of the images Pillow could measure but not decode (a truncated or
        corrupt file), from make_variants()'s `results` for `jobs`."""
        return [
            ContentError(
                f"{FOLDER}/{Path(job[0]).relative_to(self.content_dir / FOLDER).as_posix()}", "image", problem
            )
            for job, (_, problem) in zip(jobs, results, strict=True)
            if problem
        ]


def make_variants(job):
    """Resize one image to each missing width, as WebP (in a worker process): (files made, None)
    or (0, what went wrong)."""
    source, missing, folder = job
    try:
        with Image.open(source) as original:
            image = ImageOps.exif_transpose(original)
            if image.mode not in ("RGB", "RGBA"):
                has_alpha = "A" in image.getbands() or "transparency" in image.info
                image = image.convert("RGBA" if has_alpha else "RGB")
            names = dict(missing)
            for width, resized in resized_chain(image, names):
                if width in names:
                    partial = os.path.join(folder, f".{names[width]}.{os.getpid()}.tmp")
                    resized.save(partial, "WEBP", quality=VARIANT_QUALITY, method=4)
                    os.replace(partial, os.path.join(folder, names[width]))  # never half-written
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        return 0, f"expected an image Pillow can decode to resize it; {exc}"
    finally:
        release_memory()
    return len(missing), None


def resized_chain(image, wanted):
    """(width, image) for each of the `wanted` widths and the variant widths above them, largest
    first, each resized (LANCZOS) from the one before it, the first from `image`: less resizing
    than from the original each time, and it looks the same (tests/content/test_media_references.py
    compares it with a direct resize). The chain does not
    depend on which variants are missing, so an image always gives the same bytes."""
    current = image
    for width in sorted({*variant_widths(image.width, True), *wanted}, reverse=True):
        if width < min(wanted):
            break
        height = max(1, round(image.height * width / image.width))
        current = current.resize((width, height), Image.Resampling.LANCZOS)
        yield width, current


def variant_name(key, width):
    return f"{key}-{width}.webp"


def published_variant(name):
    """The cache file of the variant named `name` if a published image has it, else None: one
    indexed query, for the view that serves /media/_v/<name>."""
    key, _, rest = name.partition("-")
    width = rest.removesuffix(".webp")
    if not width.isdigit() or variant_name(key, int(width)) != name:
        return None
    widths = MediaFile.objects.filter(variant_key=key).values_list("variants", flat=True).first()
    return Path(settings.MEDIA_CACHE_DIR) / name if widths and int(width) in widths else None


def variant_files():
    """{name: cache path} of the variant of every published image (for /media/_v/)."""
    folder = Path(settings.MEDIA_CACHE_DIR)
    found = {}
    for path, content_hash, variants in MediaFile.objects.values_list("path", "content_hash", "variants"):
        for name in Media(path, content_hash, variants=tuple(variants)).variant_names().values():
            found[name] = folder / name
    return found
