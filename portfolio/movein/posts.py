"""What every generator's reader produces: the posts found in SOURCE, and the files skipped."""

import datetime
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from portfolio.content import files, rules

from . import frontmatter
from .markup import Lines

# Folders no generator reads posts from: build output, dependencies, version control.
IGNORED_DIRS = {".git", "node_modules", "_site", "public", "resources", "vendor", ".jekyll-cache", "dist"}
DATE_PREFIX = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdown", ".mkd", ".mkdn"}


class NotASite(Exception):
    """SOURCE is not a site of the kind asked for; the message says what was looked for."""


@dataclass
class Skip:
    rel: str
    reason: str


@dataclass
class Post:
    rel: str  # the file, relative to SOURCE (the report's name for it)
    path: Path
    name: str  # the file's or bundle's name the slug starts from (Jekyll's without its date)
    fields: dict  # front matter as written
    body: str
    body_line: int  # the file line the body starts on
    draft: bool = False  # by where it is (Jekyll's _drafts/)
    file_date: datetime.date | None = None  # from the file name (Jekyll)
    section: str = ""  # Hugo: the folders under content/ (posts, blog/2020)
    kind: str = "article"  # or "page": a standalone page (an about page), written to pages/
    address: str = ""  # a page's address on the old site, when its reader knows it from its path
    nav: int | None = None  # a page in the old site's main menu: its place there
    language: str | None = None  # a translation's language (of the post of the same name), lowercase
    warnings: list = field(default_factory=list)  # [(line or None, message)]

    def warn(self, message, at=None):
        """A warning about the body, at character `at` of the body when known."""
        line = None if at is None else self.body_line + self.line_of(at)
        self.warnings.append((line, message))

    def line_of(self, at):
        """How many lines of the body come before character `at` (markup.Lines: the newlines'
        places found once, so a body of 100,000 warnings is not counted 100,000 times)."""
        if getattr(self, "_lines", None) is None:
            self._lines = Lines(self.body)
        return self._lines.line(at)


@dataclass
class Failed:
    rel: str
    reason: str


def leads_out(path, source):
    """Why `path` (a file or folder named under SOURCE) is not read: a symbolic link, `..` or
    absolute path that leads out of SOURCE, or a link to nothing or a loop; None when it is
    SOURCE's own."""
    try:
        target = path.resolve(strict=True)
    except FileNotFoundError:
        return "a symbolic link to nothing: not read"
    except RuntimeError:
        return "a symbolic link loop: not read"
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if target.is_relative_to(source.resolve()):
        return None
    return f"leads out of SOURCE (to {target}): not read"


def read_post(path, source, name, **extra):
    """A Post of the markdown file `path`, Skip when a link leads it out of SOURCE, or Failed
    saying why it cannot be read (a file over the content format's CONTENT_MAX_FILE_BYTES would
    not build: it is not read)."""
    rel = path.relative_to(source).as_posix()
    outside = leads_out(path, source)
    if outside:
        return Skip(rel, outside)
    try:
        raw, _ = files.read(path, rel, settings.CONTENT_MAX_FILE_BYTES)
        text = frontmatter.decode(raw)
        fields, body, _ = frontmatter.split(text)
    except rules.ContentInvalid as exc:
        return Failed(rel, exc.errors[0].message)
    except frontmatter.Unreadable as exc:
        return Failed(rel, str(exc))
    body_line = text.count("\n", 0, len(text) - len(body)) + 1
    return Post(rel=rel, path=path, name=name, fields=fields, body=body, body_line=body_line, **extra)


def walk(folder):
    """Every file under `folder`, sorted, outside IGNORED_DIRS and hidden entries."""
    found = []
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if any(part in IGNORED_DIRS or part.startswith(".") for part in parts[:-1]):
            continue
        if path.is_file() and not parts[-1].startswith(".") and not parts[-1].endswith("~"):
            found.append(path)
    return found


MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MONTH = r"(?P<month>(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\.?"
WEEKDAY = r"(?:[a-z]+,?\s+)?"
# The other forms a JavaScript Date (Astro's z.coerce.date()) reads: `25 Aug 2024`,
# `Aug 25, 2024`, `Sunday, August 25th 2024`, `2024/08/25`, `08/25/2024`.
TEXT_DATES = [
    re.compile(rf"{WEEKDAY}(?P<day>\d{{1,2}})\s+{MONTH},?\s+(?P<year>\d{{4}})\b", re.I),
    re.compile(rf"{WEEKDAY}{MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>\d{{4}})\b", re.I),
    re.compile(r"(?P<year>\d{4})/(?P<month>\d{1,2})/(?P<day>\d{1,2})\b"),
    re.compile(r"(?P<month>\d{1,2})/(?P<day>\d{1,2})/(?P<year>\d{4})\b"),
]


def date_of(value):
    """The calendar date a front matter value names, as written (`2014-05-12 10:00 +0200` is the
    12th; `25 Aug 2024` and the other forms of TEXT_DATES too), or None."""
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()[:100]
    found = DATE_PREFIX.match(text)
    if found:
        return _calendar(*map(int, found.groups()))
    for pattern in TEXT_DATES:
        found = pattern.fullmatch(text) or pattern.match(text)
        if found:
            month = found["month"]
            number = int(month) if month.isdigit() else MONTH_NAMES.index(month[:3].lower()) + 1
            return _calendar(int(found["year"]), number, int(found["day"]))
    return None


def _calendar(year, month, day):
    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None


def language_code(written):
    """The content format's form of a language code as a generator writes it (`pt_BR` is pt-br,
    `FR` fr: lowercase, `-` between subtags), or None when it is none the format takes."""
    code = str(written).strip().lower().replace("_", "-")
    return code if rules.LANGUAGE_RE.fullmatch(code) else None


def text_of(value):
    """A front matter value as stripped text, or "" when it is not text."""
    return value.strip() if isinstance(value, str) else ""


def words(value):
    """A list of strings from a front matter list, or from a string of space-separated words
    (Jekyll's `tags: a b`)."""
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [str(item) for item in value if isinstance(item, (str, int, float)) and str(item).strip()]
    return []


def first_of(fields, *keys):
    """The first of `keys` that `fields` has, and its value: (key, value) or (None, None)."""
    for key in keys:
        if fields.get(key) not in (None, "", []):
            return key, fields[key]
    return None, None
