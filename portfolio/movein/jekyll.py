"""Jekyll sites: `_posts/YYYY-MM-DD-title.md` (in any folder: the folders above are the post's
categories), `_drafts/`, `_config.yml` (title, url, baseurl, permalink), Liquid in bodies."""

import datetime
import re

from . import kramdown, liquid
from .frontmatter import read_config
from .posts import (
    DATE_PREFIX,
    IGNORED_DIRS,
    MARKDOWN_SUFFIXES,
    NotASite,
    Post,
    Skip,
    date_of,
    leads_out,
    read_post,
    text_of,
    walk,
    words,
)

POST_NAME = re.compile(DATE_PREFIX.pattern + r"-(?P<title>.+)$")
# Jekyll's built-in permalink styles.
STYLES = {
    "date": "/:categories/:year/:month/:day/:title:output_ext",
    "pretty": "/:categories/:year/:month/:day/:title/",
    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
    "weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
    "none": "/:categories/:title:output_ext",
}


class Jekyll:
    label = "Jekyll"
    date_keys = ("date",)
    image_keys = ("image", "cover", "header")
    known = {"title", "description", "excerpt", "summary", "tags", "tag", "categories", "category",
             "published", "slug", "permalink", "redirect_from", "layout", *date_keys}  # fmt: skip

    def __init__(self, source):
        self.source = source
        self.skipped = []  # files and folders a link leads out of SOURCE: Skips, reported first
        config_file = next((source / n for n in ("_config.yml", "_config.yaml", "_config.toml")
                            if (source / n).is_file()), None)  # fmt: skip
        self.folders = [path for path in walk_dirs(source) if path.name in ("_posts", "_drafts")]
        if config_file is None and not self.folders:
            raise NotASite(f"{source} is not a Jekyll site: it has no _config.yml and no _posts/ folder")
        if config_file and (outside := leads_out(config_file, source)):
            self.skipped.append(Skip(config_file.name, outside))
            config_file = None
        for folder in list(self.folders):
            if outside := leads_out(folder, source):
                self.skipped.append(Skip(folder.relative_to(source).as_posix() + "/", outside))
                self.folders.remove(folder)
        config = read_config(config_file) if config_file else {}
        author = config.get("author")
        self.title = text_of(config.get("title"))
        self.description = text_of(config.get("description"))
        self.author = text_of(author.get("name") if isinstance(author, dict) else author)
        url = text_of(config.get("url"))
        self.url = url.rstrip("/") if url.startswith(("http://", "https://")) else ""
        base = text_of(config.get("baseurl")).strip("/")
        self.base_path = "/" + base if base else ""
        self.permalink = text_of(config.get("permalink")) or "date"
        exclude = config.get("exclude")
        self.exclude = {str(name).strip("/") for name in exclude} if isinstance(exclude, list) else set()
        self.exclude |= {"README.md", "CHANGELOG.md", "LICENSE.md", "CONTRIBUTING.md"}

    def entries(self):
        yield from self.skipped
        for folder in self.folders:
            categories = [part for part in folder.parent.relative_to(self.source).parts if part != "."]
            for path in walk(folder):
                rel = path.relative_to(self.source).as_posix()
                if path.suffix.lower() not in MARKDOWN_SUFFIXES:
                    if path.suffix.lower() in (".html", ".htm", ".textile"):
                        yield Skip(rel, f"a {path.suffix} post, not markdown: move it by hand")
                    continue
                named = POST_NAME.match(path.stem)
                draft = folder.name == "_drafts"
                if not named and not draft:
                    yield Skip(rel, "not named YYYY-MM-DD-title, as Jekyll requires of a post")
                    continue
                file_date = None
                if named:
                    try:
                        file_date = datetime.date(*map(int, named.groups()[:3]))
                    except ValueError:
                        yield Skip(rel, f"its name's date {named[0][:10]} is not a calendar date")
                        continue
                post = read_post(path, self.source, named["title"] if named else path.stem,
                                 draft=draft, file_date=file_date, section="/".join(categories))  # fmt: skip
                if isinstance(post, Post) and post.fields.get("published") is False:
                    post.draft = True
                yield post
        yield from self.pages()

    def old_addresses(self, post):
        """The post's permalink on the old site (its own, else the config's, else Jekyll's
        default), then its `redirect_from` (jekyll-redirect-from)."""
        if post.kind == "page":
            return [post.address, *self._redirects(post)]
        pattern = text_of(post.fields.get("permalink")) or self.permalink
        pattern = STYLES.get(pattern, pattern)
        date = date_of(post.fields.get("date")) or post.file_date
        categories = [*([post.section] if post.section else []),
                      *words(post.fields.get("categories")), *words(post.fields.get("category"))]  # fmt: skip
        title = post.fields.get("slug") if isinstance(post.fields.get("slug"), str) else post.name
        values = {
            "categories": "/".join(dict.fromkeys(c.lower() for c in categories)),
            "title": re.sub(r"[^\w.~!$&'()+,;=@-]+", "-", title).strip("-"),
            "slug": re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-"),
            "name": re.sub(r"[^a-z0-9]+", "-", post.name.lower()).strip("-"),
            "output_ext": ".html",
        }
        if date:
            values.update(year=f"{date.year:04d}", month=f"{date.month:02d}", i_month=str(date.month),
                          day=f"{date.day:02d}", i_day=str(date.day), short_year=f"{date.year % 100:02d}",
                          y_day=f"{date.timetuple().tm_yday:03d}", week=f"{date.isocalendar()[1]:02d}",
                          short_day=date.strftime("%a"))  # fmt: skip
        path = re.sub(r":(\w+)", lambda m: values.get(m[1], m[0]), pattern)
        page = re.sub(r"/{2,}", "/", self.base_path + "/" + path.lstrip("/"))
        return [page, *self._redirects(post)]

    def _redirects(self, post):
        redirects = post.fields.get("redirect_from")
        return [self.base_path + "/" + old.strip().lstrip("/")
                for old in ([redirects] if isinstance(redirects, str) else redirects or [])
                if isinstance(old, str) and old.strip()]  # fmt: skip

    def local_file(self, post, path):
        """`/assets/x.png` is SOURCE/assets/x.png; a relative path is tried beside the post, then
        from the site's root."""
        if path.startswith("/"):
            relative = path.lstrip("/")
            if self.base_path and path.startswith(self.base_path + "/"):
                relative = path[len(self.base_path) + 1 :]
            return self.source / relative
        beside = post.path.parent / path
        return beside if beside.exists() else self.source / path

    def convert_body(self, post, body, context):
        return kramdown.convert(post, liquid.convert(post, body, context), body)

    def pages(self):
        """The site's markdown pages (about.md, projects/index.md): each file with front matter
        outside the folders Jekyll does not publish (`_*`, dotted, its `exclude`)."""
        for path in walk(self.source):
            rel = path.relative_to(self.source)
            if path.suffix.lower() not in MARKDOWN_SUFFIXES or rel.as_posix() in self.exclude:
                continue
            if any(part.startswith(("_", ".")) or part in self.exclude for part in rel.parts[:-1]):
                continue
            if rel.name.startswith(("_", ".")) or not path.read_bytes()[:4].startswith(b"---"):
                continue  # Jekyll publishes a page with front matter only (a README stays in the repository)
            parts = rel.with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "index" else parts
            if not parts:
                yield Skip(rel.as_posix(), "the home page: this site has its own")
                continue
            if parts[-1] == "404":
                yield Skip(rel.as_posix(), "the old site's page for missing addresses: this site has its own")
                continue
            page = read_post(path, self.source, "-".join(parts), kind="page")
            if isinstance(page, Post):
                pretty = self.permalink == "pretty" or self.permalink.endswith("/")
                index = rel.stem == "index"
                address = "/" + "/".join(parts) + ("/" if pretty or index else ".html")
                permalink = text_of(page.fields.get("permalink"))
                page.address = self.base_path + ("/" + permalink.lstrip("/") if permalink else address)
                if page.fields.get("published") is False:
                    page.draft = True
            yield page


def walk_dirs(source):
    """Every folder of the site outside build output and dependencies, sorted."""
    return sorted(
        path
        for path in source.rglob("*")
        if path.is_dir()
        and not any(part in IGNORED_DIRS or (part.startswith(".")) for part in path.relative_to(source).parts)
    )
