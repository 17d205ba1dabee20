"""Jekyll sites: `_posts/YYYY-MM-DD-title.md` (in any folder: the folders above are the post's
categories), `_drafts/`, `_config.yml` (title, url, baseurl, permalink), Liquid in bodies; a site
in several languages as jekyll-polyglot or jekyll-multiple-languages-plugin writes one."""

import datetime
import re
from pathlib import PurePosixPath

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
    language_code,
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
# A front matter key's line (`lang: fr`), for the warnings that name it.
LANG_LINE = re.compile(r"^lang[ \t]*:", re.M)


class Jekyll:
    label = "Jekyll"
    date_keys = ("date",)
    image_keys = ("image", "cover", "header")
    known = {"title", "description", "excerpt", "summary", "tags", "tag", "categories", "category",
             "published", "slug", "permalink", "redirect_from", "layout", "lang", "page_id",
             *date_keys}  # fmt: skip

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
        self.config = config  # what a body's {{ site.x }} names
        author = config.get("author")
        self.title = text_of(config.get("title"))
        self.description = text_of(config.get("description"))
        self.author = text_of(author.get("name") if isinstance(author, dict) else author)
        url = text_of(config.get("url"))
        self.url = url.rstrip("/") if url.startswith(("http://", "https://")) else ""
        base = text_of(config.get("baseurl")).strip("/")
        self.base_path = "/" + base if base else ""
        self.permalink = text_of(config.get("permalink")) or "date"
        # jekyll-feed's feed (`feed: {path: ...}` moves it), under the baseurl: site_moves().
        plugins = config.get("plugins") or config.get("gems") or []
        feed = config.get("feed") if isinstance(config.get("feed"), dict) else {}
        written = text_of(feed.get("path")).strip("/") or "feed.xml"
        self.feed = f"{self.base_path}/{written}" if "jekyll-feed" in map(str, plugins) else None
        exclude = config.get("exclude")
        self.exclude = {str(name).strip("/") for name in exclude} if isinstance(exclude, list) else set()
        self.exclude |= {"README.md", "CHANGELOG.md", "LICENSE.md", "CONTRIBUTING.md"}
        self.notes = []  # what the report says of the config (a language code written otherwise)
        self._read_languages(config, config_file)
        self.fallbacks = {}  # {rel: [codes]}: the languages an original was also served in, untranslated

    def _read_languages(self, config, config_file):
        """A site in several languages: jekyll-polyglot's (`languages`, `default_lang`, each
        document's `lang`, `lang_from_path`), or jekyll-multiple-languages-plugin's (`languages`,
        the first the default, posts in `_i18n/<lang>/_posts/`). `self.plugin` is None for a site
        in one; `self.written` maps each code this site takes to the old site's spelling of it,
        which its addresses have (`/pt_BR/...`)."""
        written = config.get("languages")
        written = [written] if isinstance(written, str) else written if isinstance(written, list) else []
        written = [str(item).strip() for item in written if isinstance(item, (str, int))]
        written = [item for item in written if item]
        self.plugin, self.written, self.from_path, self.segment = None, {}, False, None
        if not written:
            self.default_language = "en"
            return
        polyglot = "default_lang" in config or not (self.source / "_i18n").is_dir()
        self.plugin = "polyglot" if polyglot else "multiple"
        default = text_of(config.get("default_lang")) or ("en" if polyglot else written[0])
        for spelling in dict.fromkeys([default, *written]):
            code = self._config_code(spelling, config_file)
            if code:
                self.written.setdefault(code, spelling)
        self.default_language = language_code(default) or "en"
        self.written.setdefault(self.default_language, default)
        self.from_path = polyglot and config.get("lang_from_path") is True
        spellings = sorted(self.written.values(), key=len, reverse=True)
        # Polyglot's document_url_regex: a language's segment in an address (`/fr/`, `.fr.`) is
        # what tells one language's version of an address from another's.
        self.segment = re.compile(r"[/.](?:" + "|".join(map(re.escape, spellings)) + r")(?=[/.])")

    def _config_code(self, spelling, config_file):
        """The code of a language as the config writes it, with a note when it is written
        otherwise here (`pt_BR`: pt-br) or cannot be (None)."""
        code = language_code(spelling)
        if code == spelling:
            return code
        where = config_file.name if config_file else "_config.yml"
        if config_file:
            text = config_file.read_text(errors="replace")
            at = text.find(spelling)
            where += f" line {text.count(chr(10), 0, at) + 1}" if at >= 0 else ""
        if code is None:
            self.notes.append(
                f"{where}: language {spelling!r} is no language code this site takes "
                "(such as fr, pt-br, zh-hant-tw): its documents are read as the default's"
            )
        else:
            self.notes.append(f"{where}: language {spelling!r} is written {code!r} here (lowercase, '-')")
        return code

    def entries(self):
        found = list(self._documents())
        if self.plugin:
            self._languages([entry for entry in found if isinstance(entry, Post)])
        yield from found

    def _documents(self):
        yield from self.skipped
        for folder in self.folders:
            categories = [part for part in folder.parent.relative_to(self.source).parts if part != "."]
            language = None  # jekyll-multiple-languages-plugin's: _i18n/<lang>/_posts/
            if self.plugin == "multiple" and categories[:1] == ["_i18n"] and len(categories) > 1:
                language, categories = categories[1], categories[2:]
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
                if isinstance(post, Post) and language:
                    post.language = language  # as written: _languages() reads it
                yield post
        yield from self.pages()

    def _languages(self, posts):
        """Each document's language (None for the default's: an original), and the languages each
        original was also served in untranslated (polyglot's fallback, the other plugin's pages
        built once per language), whose addresses it keeps."""
        for post in posts:
            language = self._language(post)
            post.language = None if language == self.default_language else language
        versions = {}
        for post in posts:
            versions.setdefault(self.translation_key(post), set()).add(post.language)
        for post in posts:
            if post.language is None and (self.plugin == "polyglot" or post.kind == "page"):
                present = versions[self.translation_key(post)]
                others = [code for code in sorted(self.written) if code != self.default_language]
                self.fallbacks[post.rel] = [code for code in others if code not in present]

    def _language(self, post):
        """The code of the document's language: its `_i18n/<lang>/` folder's, its `lang`, or the
        first or second folder of its path (polyglot's `lang_from_path`), else the default's. A
        code written otherwise here (`FR`, `pt_BR`) is said on the file, and one that is none of
        the config's languages too (the document is then the default's, as polyglot falls back)."""
        written = post.language or text_of(post.fields.get("lang"))
        if not written and self.from_path:
            parts = PurePosixPath(post.rel).parts[:2]
            written = next((part for part in parts if language_code(part) in self.written), "")
        if not written:
            return self.default_language
        code = language_code(written)
        if code not in self.written:
            listed = ", ".join(sorted(self.written))
            why = f"language {written!r} is none of the config's languages ({listed}): read as the default's"
            post.warnings.append((self._lang_line(post), why))
            return self.default_language
        if code != written and text_of(post.fields.get("lang")) == written:
            post.warnings.append(
                (self._lang_line(post), f"lang {written!r} is written {code!r} here (lowercase, '-')")
            )
        return code

    def _lang_line(self, post):
        """The line of the file's front matter `lang`, or None (the file read again: asked only
        for a warning)."""
        head = "\n".join(post.path.read_text(errors="replace").split("\n", post.body_line - 1)[:-1])
        found = LANG_LINE.search(head)
        return head.count("\n", 0, found.start()) + 1 if found else None

    def translation_key(self, post):
        """What a translation shares with its original: polyglot's `page_id`, else its address
        with any language's segment taken out (`/fr/2020/x.html` and `/2020/x.html` are one), as
        polyglot matches them; the other plugin's posts by their file's name."""
        if self.plugin == "multiple":
            return (post.kind, post.section, post.name)
        page_id = post.fields.get("page_id")
        if isinstance(page_id, (str, int)) and str(page_id).strip():
            return (post.kind, "page_id", str(page_id).strip())
        return (post.kind, "url", self.segment.sub("", self._url(post)))

    def old_addresses(self, post):
        """The document's address on the old site (its permalink, else the config's, else
        Jekyll's default), under `/<lang>/` for another language than the default, then the same
        under each language it was also served in untranslated (polyglot's fallback), under the
        baseurl; then its `redirect_from` (jekyll-redirect-from)."""
        url = self._url(post)
        if self.plugin == "polyglot" and post.fields.get("lang") and not post.fields.get("permalink"):
            url = self.segment.sub("", url) or "/"  # polyglot sets such a document's permalink so
        prefixes = [post.language] if post.language else ["", *self.fallbacks.get(post.rel, [])]
        found = [self._under(f"/{self.written[code]}" if code else "", url) for code in prefixes]
        return [*found, *self._redirects(post)]

    def _under(self, prefix, url):
        return re.sub(r"/{2,}", "/", self.base_path + prefix + "/" + url.lstrip("/"))

    def _url(self, post):
        """The document's address on the old site, without the baseurl: a page's from its path or
        permalink; a post's permalink, else the config's, else Jekyll's default."""
        if post.kind == "page":
            return post.address
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
        return re.sub(r"/{2,}", "/", "/" + path.lstrip("/"))

    def _redirects(self, post):
        redirects = post.fields.get("redirect_from")
        return [self.base_path + "/" + old.strip().lstrip("/")
                for old in ([redirects] if isinstance(redirects, str) else redirects or [])
                if isinstance(old, str) and old.strip()]  # fmt: skip

    def site_moves(self):
        """[(old address, new address)] of the old site's own addresses (site.yaml's `redirects`):
        its home under the baseurl, jekyll-feed's feed."""
        found = [(self.base_path + "/", "/")] if self.base_path else []
        return found + ([(self.feed, "/feed.xml")] if self.feed else [])

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
        return kramdown.convert(post, liquid.convert(post, body, context, self.config), body)

    def pages(self):
        """The site's markdown pages (about.md, projects/index.md): each file with front matter
        outside the folders Jekyll does not publish (`_*`, dotted, its `exclude`)."""
        for path in walk(self.source):
            rel = path.relative_to(self.source)
            if path.suffix.lower() not in MARKDOWN_SUFFIXES or rel.as_posix() in self.exclude:
                continue
            if any(part.startswith(("_", ".")) or part in self.exclude for part in rel.parts[:-1]):
                continue
            if rel.name.startswith(("_", ".")) or not _front_matter_first(path):
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
                page.address = "/" + permalink.lstrip("/") if permalink else address  # under the baseurl
                if self.segment and self.segment.sub("", page.address) == "/":  # polyglot's fr/index.md
                    yield Skip(rel.as_posix(), "a language's home page: this site has its own")
                    continue
                if page.fields.get("published") is False:
                    page.draft = True
            yield page


def _front_matter_first(path):
    """Whether the file starts with `---` (its first bytes only: read_post reads it whole)."""
    with path.open("rb") as file:
        return file.read(3) == b"---"


def walk_dirs(source):
    """Every folder of the site outside build output and dependencies, sorted."""
    return sorted(
        path
        for path in source.rglob("*")
        if path.is_dir()
        and not any(part in IGNORED_DIRS or (part.startswith(".")) for part in path.relative_to(source).parts)
    )
