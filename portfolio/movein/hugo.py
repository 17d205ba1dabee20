"""Hugo sites: pages under content/ (YAML `---`, TOML `+++` or JSON front matter), leaf bundles
(`posts/name/index.md` and its files), shortcodes, permalinks from the site's config, aliases."""

import re
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from . import shortcodes
from .frontmatter import read_config
from .posts import MARKDOWN_SUFFIXES, NotASite, Post, Skip, date_of, leads_out, read_post, walk

CONFIG_NAMES = [f"{stem}.{ext}" for stem in ("hugo", "config") for ext in ("toml", "yaml", "yml", "json")]
CONTENT_SUFFIXES = {".html", ".htm", ".org", ".adoc", ".asciidoc", ".rst", ".pdc", ".pandoc", ".mdx"}
# `post.fr.md`, `index.pt-br.md`: a translation of the page of the same name.
TRANSLATION = re.compile(r"\.(?P<language>[a-z]{2,3}(?:-[a-z0-9]{2,8})?)$", re.IGNORECASE)
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]  # fmt: skip


class Hugo:
    label = "Hugo"
    date_keys = ("date", "publishDate", "pubDate", "published")
    image_keys = ("featured_image", "featuredImage", "image", "images", "cover")
    known = {
        "title",
        "description",
        "summary",
        "tags",
        "categories",
        "draft",
        "slug",
        "url",
        "aliases",
        *date_keys,
    }

    def __init__(self, source):
        self.source = source
        self.skipped = []  # config files a link leads out of SOURCE: Skips, reported first
        config = {}
        for folder in (source, source / "config" / "_default"):
            for name in CONFIG_NAMES:
                if (folder / name).is_file() and not config:
                    outside = leads_out(folder / name, source)
                    if outside:
                        self.skipped.append(Skip((folder / name).relative_to(source).as_posix(), outside))
                        continue
                    config = read_config(folder / name)
                    self.config_file = folder / name
        written = str(config.get("contentDir") or config.get("contentdir") or "content")
        self.content = source / written
        if PurePosixPath(written).is_absolute() or ".." in PurePosixPath(written).parts:
            raise NotASite(f"{source}: its contentDir {written!r} leads out of SOURCE: not read")
        outside = leads_out(self.content, source) if self.content.exists() else None
        if outside:
            raise NotASite(f"{source}: its contentDir {written!r} {outside}")
        if not self.content.is_dir():
            names = ", ".join(CONFIG_NAMES[:2])
            raise NotASite(
                f"{source} is not a Hugo site: it has no {self.content.name}/ folder (nor {names})"
            )
        params = config.get("params") if isinstance(config.get("params"), dict) else {}
        self.title = _text(config.get("title"))
        self.description = _text(params.get("description") or config.get("description"))
        author = params.get("author") or config.get("author")
        self.author = _text(author.get("name") if isinstance(author, dict) else author)
        base = _text(config.get("baseURL") or config.get("baseurl"))
        self.url = base.rstrip("/") if base.startswith(("http://", "https://")) else ""
        self.base_path = urlsplit(base).path.rstrip("/") if self.url else ""
        self.lowercase = not config.get("disablePathToLower", False)
        permalinks = config.get("permalinks") if isinstance(config.get("permalinks"), dict) else {}
        if isinstance(permalinks.get("page"), dict):  # Hugo 0.112+: permalinks by page kind
            permalinks = permalinks["page"]
        self.permalinks = {key: value for key, value in permalinks.items() if isinstance(value, str)}

    def entries(self):
        yield from self.skipped
        files = walk(self.content)
        bundles = {path.parent for path in files if path.stem == "index" and path.suffix in MARKDOWN_SUFFIXES}
        for path in files:
            rel = path.relative_to(self.source).as_posix()
            suffix = path.suffix.lower()
            if suffix not in MARKDOWN_SUFFIXES:
                if suffix in CONTENT_SUFFIXES:
                    yield Skip(rel, f"a {suffix} page, not markdown: move it by hand")
                continue  # a bundle's images and other files, copied when a page uses them
            stem = path.stem
            translation = TRANSLATION.search(stem)
            if translation:
                yield Skip(
                    rel, f"a translation ({translation['language']}): only the default language moves in"
                )
                continue
            if stem == "_index":
                yield Skip(rel, "a section's list page, not a post")
                continue
            bundle = path.parent if stem == "index" else None
            if bundle is None and any(folder in bundles for folder in path.parents):
                yield Skip(
                    rel, f"a file of the page bundle {_bundle_of(path, bundles).relative_to(self.source)}/"
                )
                continue
            page_dir = (bundle or path).parent
            section = page_dir.relative_to(self.content).as_posix()
            if section == ".":
                yield Skip(rel, "a page outside any section (such as an about page), not a post")
                continue
            post = read_post(path, self.source, bundle.name if bundle else stem, section=section)
            if isinstance(post, Post) and _headless(post.fields):
                yield Skip(rel, "a headless page (never rendered on the old site)")
            else:
                yield post

    def old_addresses(self, post):
        """The page's address on the old site (front matter `url`, else the section's permalink
        pattern, else /<section>/<slug or name>/), then its `aliases`."""
        url = post.fields.get("url")
        if isinstance(url, str) and url.strip():
            page = urlsplit(url.strip()).path or "/"
            page = page if page.startswith("/") else "/" + page
        else:
            pattern = self.permalinks.get(post.section.split("/")[0])
            page = self._permalink(pattern, post) if pattern else f"/{post.section}/{self._slug(post)}/"
            page = self.base_path + page
        if self.lowercase:
            page = page.lower()
        found = [page]
        directory = str(PurePosixPath(page).parent).rstrip("/") + "/"
        for alias in post.fields.get("aliases") or []:
            if isinstance(alias, str) and alias.strip():
                alias = urlsplit(alias.strip()).path if "://" in alias else alias.strip()
                found.append(alias if alias.startswith("/") else directory + alias)
        return found

    def _slug(self, post):
        slug = post.fields.get("slug")
        return _urlize(str(slug)) if isinstance(slug, (str, int)) and str(slug).strip() else post.name

    def _permalink(self, pattern, post):
        date = date_of(post.fields.get("date")) or date_of(post.fields.get("publishDate"))
        title = _urlize(str(post.fields.get("title") or post.name))
        slug = self._slug(post) if post.fields.get("slug") else None
        values = {
            "section": post.section.split("/")[0],
            "sections": post.section,
            "title": title,
            "slug": slug or title,
            "filename": post.name,
            "contentbasename": post.name,
            "slugorfilename": slug or post.name,
            "slugorcontentbasename": slug or post.name,
        }
        if date:
            values.update(
                year=f"{date.year:04d}", month=f"{date.month:02d}", monthname=MONTHS[date.month - 1],
                day=f"{date.day:02d}", yearday=f"{date.timetuple().tm_yday}",
                weekday=str(date.isoweekday() % 7), weekdayname=date.strftime("%A"),
            )  # fmt: skip
        path = re.sub(r":(\w+)", lambda m: values.get(m[1], m[0]), pattern)
        path = "/" + path.lstrip("/")
        return re.sub(r"/{2,}", "/", path)

    def local_file(self, post, path):
        """`/x.png` is static/x.png (or assets/x.png); anything else is relative to the page,
        which is its bundle's folder for a bundle."""
        if path.startswith("/"):
            relative = path.lstrip("/")
            if self.base_path and path.startswith(self.base_path + "/"):
                relative = path[len(self.base_path) + 1 :]
            static = self.source / "static" / relative
            return static if static.exists() else self.source / "assets" / relative
        return post.path.parent / path

    def convert_body(self, post, body, context):
        return shortcodes.convert(post, body, context)


def _bundle_of(path, bundles):
    return next(folder for folder in path.parents if folder in bundles)


def _headless(fields):
    build = fields.get("build") or fields.get("_build")
    never = isinstance(build, dict) and build.get("render") in ("never", False, "false")
    return fields.get("headless") is True or never


def _urlize(text):
    """Hugo's urlize, near enough: spaces become hyphens, what a path cannot hold goes."""
    text = re.sub(r"\s+", "-", text.strip())
    return re.sub(r"[^\w\-./~+]", "", text)


def _text(value):
    return value.strip() if isinstance(value, str) else ""
