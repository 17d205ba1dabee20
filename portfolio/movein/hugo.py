"""Hugo sites: pages under content/ (YAML `---`, TOML `+++` or JSON front matter), leaf bundles
(`posts/name/index.md` and its files), shortcodes, permalinks from the site's config, aliases."""

import posixpath
import re
import unicodedata
from collections import Counter
from pathlib import PurePosixPath
from urllib.parse import unquote_plus, urlsplit

from . import anchors, deflists, shortcodes
from .frontmatter import read_config
from .posts import MARKDOWN_SUFFIXES, NotASite, Post, Skip, date_of, leads_out, read_post, text_of, walk

CONFIG_EXTENSIONS = ("toml", "yaml", "yml", "json")
CONFIG_NAMES = [f"{stem}.{ext}" for stem in ("hugo", "config") for ext in CONFIG_EXTENSIONS]
CONTENT_SUFFIXES = {".html", ".htm", ".org", ".adoc", ".asciidoc", ".rst", ".pdc", ".pandoc", ".mdx"}
# `post.fr.md`, `index.pt-br.md`: a translation of the page of the same name.
TRANSLATION = re.compile(r"\.(?P<language>[a-z]{2,3}(?:-[a-z0-9]{2,8}){0,3})$", re.IGNORECASE)
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
        self.menu_files = {}  # {language: [(config/_default/menus.<language>.toml, its menus)]}
        config = self._config()
        params = config.get("params") if isinstance(config.get("params"), dict) else {}
        self.params = params  # the site's, keys lower-cased: what a page's {{< param >}} falls back to
        languages = config.get("languages") if isinstance(config.get("languages"), dict) else {}
        self.default_language = text_of(config.get("defaultcontentlanguage")).lower() or "en"
        self.languages = {str(code).lower() for code in languages}
        default = languages.get(self.default_language) or {}
        written = str((default.get("contentdir") if isinstance(default, dict) else None)
                      or config.get("contentdir") or "content")  # fmt: skip
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
        # Other languages' own content folders: their pages are translations.
        self.translated = {
            (source / str(settings["contentdir"])).resolve(): str(code)
            for code, settings in languages.items()
            if isinstance(settings, dict)
            and settings.get("contentdir")
            and str(code).lower() != self.default_language
        }
        # Those outside the default language's folder, read too (inside SOURCE only).
        self.language_folders = {}
        for code, settings in languages.items():
            written = settings.get("contentdir") if isinstance(settings, dict) else None
            if not written or str(code).lower() == self.default_language:
                continue
            folder = source / str(written)
            inside = (
                not PurePosixPath(str(written)).is_absolute()
                and ".." not in PurePosixPath(str(written)).parts
            )
            if inside and folder.is_dir() and not leads_out(folder, source):
                if not folder.resolve().is_relative_to(self.content.resolve()):
                    self.language_folders[str(code)] = folder
        self.title = text_of(config.get("title"))
        self.description = text_of(params.get("description") or config.get("description"))
        author = params.get("author") or config.get("author")
        self.author = text_of(author.get("name") if isinstance(author, dict) else author)
        base = text_of(config.get("baseurl"))
        self.url = base.rstrip("/") if base.startswith(("http://", "https://")) else ""
        # The baseURL's path as written: Hugo lower-cases the pages' paths, never the baseURL's.
        self.base_path = urlsplit(base).path.rstrip("/") if self.url else ""
        self.lowercase = not _flag(config.get("disablepathtolower"))
        self.remove_accents = _flag(config.get("removepathaccents"))
        # `defaultContentLanguageInSubdir`: the default language's pages are under /<code>/ too
        # (/en/posts/hello/, its home /en/; / only redirects there), as the other languages' are.
        in_subdir = _flag(config.get("defaultcontentlanguageinsubdir"))
        self.default_prefix = f"/{self.default_language}" if in_subdir else ""
        # The old site's home: / (under the baseURL's path), else /<code>/ with the setting.
        self.home = self.base_path + self.default_prefix
        permalinks = config.get("permalinks") if isinstance(config.get("permalinks"), dict) else {}
        if isinstance(permalinks.get("page"), dict):  # Hugo 0.112+: permalinks by page kind
            permalinks = permalinks["page"]
        self.permalinks = {key: value for key, value in permalinks.items() if isinstance(value, str)}
        main = params.get("mainsections")
        self.main_sections = [main] if isinstance(main, str) else [str(s) for s in main or [] if s]
        # The main menu of every language (the config's `menus`), and each language's own where it
        # has one (its `languages.<code>.menus`, config/_default/menus.<code>.toml), which Hugo
        # uses for that language instead: {code: ([entries], where it is written)}.
        self.menu = _main_menu(config)
        self.language_menus = {}
        for code, settings in languages.items():
            if isinstance(settings, dict) and (own := _main_menu(settings)):
                self.language_menus[str(code).lower()] = (own, f"the config's languages.{code}")
        for code, found in self.menu_files.items():
            entries = [entry for _, menus in found for entry in _main_menu({"menus": menus})]
            if entries:
                self.language_menus[code] = (entries, found[0][0])
        self.root_menu = self.menu  # every language's that has none of its own
        self.menu = self.language_menus.get(self.default_language, (self.menu, ""))[0]
        # What Goldmark (Hugo's markdown) reads beyond CommonMark, on unless the config turns it off.
        goldmark = _dig(config, "markup", "goldmark")
        self.heading_attributes = _dig(goldmark, "parser", "attribute").get("title", True) is not False
        self.definition_lists = _dig(goldmark, "extensions").get("definitionlist", True) is not False

    def _config(self):
        """The site's configuration, merged as Hugo merges it: config/_default/ (`hugo.*` or
        `config.*` at its root, any other file under its name's key: params.toml is `params`),
        config/production/ over it (a build's environment), the root `hugo.*` (else `config.*`)
        over both; keys lower-cased (Hugo's are case-insensitive)."""
        source, merged = self.source, {}
        for environment in ("_default", "production"):
            folder = source / "config" / environment
            if not folder.is_dir() or self._outside(folder):
                continue
            for path in sorted(folder.iterdir()):
                stem, _, ext = path.name.rpartition(".")
                if ext not in CONFIG_EXTENSIONS or not path.is_file() or self._outside(path):
                    continue
                key, _, language = stem.lower().partition(".")
                if language and key in ("menus", "menu"):  # `menus.fr.toml`: the fr menus
                    rel = path.relative_to(source).as_posix()
                    self.menu_files.setdefault(language, []).append((rel, _lower(read_config(path))))
                    continue
                if language:
                    continue  # another key of one language's (`params.fr.toml`): not read
                data = _lower(read_config(path))
                _merge(merged, data if stem in ("hugo", "config") else {stem.lower(): data})
        root = next((source / name for name in CONFIG_NAMES if (source / name).is_file()), None)
        if root is not None and not self._outside(root):
            _merge(merged, _lower(read_config(root)))
        return merged

    def _outside(self, path):
        outside = leads_out(path, self.source)
        if outside:
            self.skipped.append(Skip(path.relative_to(self.source).as_posix(), outside))
        return outside

    def _language(self, stem):
        """(name, language) of a file's stem: `post.fr` is post in fr when fr is a language of the
        site's (any `.xx` or `.xx-yy-zz` when it configures none); the language is None for the
        default one's."""
        found = TRANSLATION.search(stem)
        if not found:
            return stem, None
        language = found["language"].lower()
        if self.languages and language not in self.languages:
            return stem, None
        name = stem[: found.start()]
        return name, None if language == self.default_language else found["language"]

    def _translated(self, path):
        """The language whose own content folder `path` is in, or None."""
        resolved = path.resolve()
        return next(
            (code for folder, code in self.translated.items() if resolved.is_relative_to(folder)), None
        )

    def entries(self):
        yield from self.skipped
        files = walk(self.content)
        for folder in self.language_folders.values():
            files += walk(folder)
        bundles = {
            path.parent
            for path in files
            if path.suffix in MARKDOWN_SUFFIXES and self._language(path.stem)[0] == "index"
        }
        pages = []
        for path in files:
            rel = path.relative_to(self.source).as_posix()
            suffix = path.suffix.lower()
            if suffix not in MARKDOWN_SUFFIXES:
                if suffix in CONTENT_SUFFIXES:
                    yield Skip(rel, f"a {suffix} page, not markdown: move it by hand")
                continue  # a bundle's images and other files, copied when a page uses them
            stem, language = self._language(path.stem)
            translated = self._translated(path)
            language = (language or translated or "").lower() or None
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
            root = self.content if not translated else self.language_folders.get(translated, self.content)
            section = page_dir.relative_to(root).as_posix()
            section = "" if section == "." else section
            post = read_post(path, self.source, bundle.name if bundle else stem, section=section)
            if isinstance(post, Post) and _headless(post.fields):
                yield Skip(rel, "a headless page (never rendered on the old site)")
            else:
                if isinstance(post, Post):
                    post.language = language  # a translation of the post of the same name
                pages.append(post)
        counts = Counter(p.section.split("/")[0] for p in pages if isinstance(p, Post) and p.section)
        main = set(self.main_sections) or ({counts.most_common(1)[0][0]} if counts else set())
        self.main = sorted(main)  # the sections of the posts (site_moves: their lists and feeds)
        for post in pages:
            if isinstance(post, Post) and post.section.split("/")[0] not in main:
                post.kind = "page"
                post.nav = self._nav(post) if not post.language else None
        self._language_menus([post for post in pages if isinstance(post, Post) and post.kind == "page"])
        yield from pages

    def _nav(self, page, menu=None, own=True):
        """The page's place in a main menu of the old site (its front matter's `menu`, unless not
        `own`: the page is another language's original; or the menu's entries, the default
        language's unless given, naming its address or its file), or None."""
        weight = _front_matter_weight(page.fields) if own else None
        if weight is not None:
            return weight
        address = self.old_addresses(page)[0].lower().rstrip("/")
        path = page.path.relative_to(self.content) if page.path.is_relative_to(self.content) else page.path
        inside = "/" + path.with_suffix("").as_posix().lower()
        named = "/" + "/".join(part for part in (page.section, page.name) if part).lower()
        for index, entry in enumerate(self.menu if menu is None else menu):
            if not isinstance(entry, dict):
                continue
            target = text_of(entry.get("pageref") or entry.get("url")).lower().rstrip("/")
            target = "/" + target.lstrip("/").removesuffix(".md") if entry.get("pageref") else target
            if target and (self.base_path.lower() + target == address or target in (address, inside, named)):
                weight = entry.get("weight", index)
                return weight if isinstance(weight, int) and not isinstance(weight, bool) else index
        return None

    def _language_menus(self, pages):
        """The other languages' main menus, as far as the site's header, one for every language,
        can say them: a page that only other languages' menus list is put in the header with the
        first one's weight; a page a language's menu leaves out or places otherwise is said, on
        that language's file (its original when it has none)."""
        originals = {(page.section, page.name): page for page in pages if not page.language}
        translated = {
            (page.section, page.name, page.language.lower()): page for page in pages if page.language
        }
        menus = {code: self._places(code, originals, translated) for code in self._menu_languages(pages)}
        borrowed = set()  # the pages only other languages' menus list (said once, here)
        for key, original in originals.items():
            listed = [(code, places[key]) for code, places in menus.items() if places[key][0] is not None]
            if original.nav is None and listed:
                original.nav, where = listed[0][1]
                borrowed.add(key)
                names = " and ".join(code for code, _ in listed)
                original.warn(
                    f"in the {names} menu only ({where}): the site's header is one for every language, "
                    "and lists it in every language"
                )
        for code, places in menus.items():
            self._compare(code, places, originals, translated, borrowed)

    def _menu_languages(self, pages):
        """The languages other than the default whose main menu may differ from its: those with a
        menu of their own in the config, or pages whose front matter puts them in it, in order."""
        codes = set(self.language_menus) | {
            page.language.lower()
            for page in pages
            if page.language and _front_matter_weight(page.fields) is not None
        }
        return sorted(codes - {self.default_language})

    def _places(self, code, originals, translated):
        """{(section, name): (its weight in the language's main menu or None, where that is said)}."""
        menu, where = self.language_menus.get(code, (self.root_menu, "the config's menus"))
        places = {}
        for key, original in originals.items():
            page = translated.get((*key, code))
            if page is not None and _front_matter_weight(page.fields) is not None:
                places[key] = (_front_matter_weight(page.fields), f"{page.rel}'s front matter")
            elif page is not None:
                places[key] = (self._nav(page, menu), where)
            else:  # no translation: the menu may still name the original's address or file
                places[key] = (self._nav(original, menu, own=False), where)
        return places

    def _compare(self, code, places, originals, translated, borrowed):
        """Warn where the language's menu leaves out a page of the header or orders it otherwise
        (never on a page `borrowed` from another language's menu: that one was said)."""
        both = [
            key
            for key, (weight, _) in places.items()
            if weight is not None and originals[key].nav is not None
        ]
        here = _ranks(both, lambda key: (places[key][0], _tie(originals[key])))
        there = _ranks(both, lambda key: (originals[key].nav, _tie(originals[key])))
        for key, original in originals.items():
            weight, where = places[key]
            page = translated.get((*key, code)) or original
            if original.nav is not None and weight is None and key not in borrowed:
                page.warn(
                    f"not in the {code} menu ({where}): the site's header is one for every language, "
                    f"and lists it in {code} too"
                )
            elif key in here and here[key] != there[key] and key not in borrowed:
                page.warn(
                    f"the {code} menu places it otherwise (weight {weight}, {where}): the site's header "
                    f"has one order for every language: order {original.nav} kept"
                )

    def old_addresses(self, post):
        """The page's address on the old site (front matter `url`, else the section's permalink
        pattern, else /<section>/<slug or name>/, each part made a path as Hugo makes it:
        `_urlize`), under /<language>/ for another language's page (and the default language's
        with `defaultContentLanguageInSubdir`), under the baseURL's path as written; then its
        `aliases` (a relative one taken from the page's folder, an absolute one under the
        baseURL's path, as Hugo writes them)."""
        prefix = f"/{post.language}" if post.language else self.default_prefix
        url = post.fields.get("url")
        if isinstance(url, str) and url.strip():
            # As written (Hugo neither sanitizes nor lower-cases it); a `url` without a leading
            # slash is the language's (/fr/about/), one with it the site's (/about/ in any language).
            page = urlsplit(url.strip()).path or "/"
            page = page if page.startswith("/") else f"{prefix}/{page}"
        else:
            pattern = self.permalinks.get(post.section.split("/")[0]) if post.section else None
            page = self._permalink(pattern, post) if pattern else self._default_path(post)
            # Hugo escapes a `#` the path keeps (C# is /posts/c%23/), as a path has to be written.
            page = prefix + page.replace("#", "%23")
        page = self.base_path + page
        found = [page]
        directory = str(PurePosixPath(page).parent).rstrip("/") + "/"
        for alias in post.fields.get("aliases") or []:
            if isinstance(alias, str) and alias.strip():
                alias = urlsplit(alias.strip()).path if "://" in alias else alias.strip()
                found.append(self.base_path + alias if alias.startswith("/") else directory + alias)
        return found

    def site_moves(self):
        """[(old address, new address)] of the old site's own addresses (site.yaml's `redirects`):
        its home under the baseURL's path (and that path itself, which redirected there, with
        defaultContentLanguageInSubdir), its feed (`index.xml`), each main section's list and feed
        (/posts/, /posts/index.xml), as Hugo writes them."""
        home = self.home
        found = [(home + "/", "/")] if home else []
        if self.base_path and home != self.base_path:  # which redirected to /<code>/ under it
            found.append((self.base_path + "/", "/"))
        found.append((home + "/index.xml", "/feed.xml"))
        for section in getattr(self, "main", []):
            path = f"{home}/{self._urlize(section)}"
            found += [(path + "/", "/articles"), (path + "/index.xml", "/feed.xml")]
        return found

    def _urlize(self, text):
        """`text` made a path as this site's Hugo made it (its PathSpec.MakePathSanitized)."""
        return _urlize(text, lowercase=self.lowercase, remove_accents=self.remove_accents)

    def _token(self, text):
        """A permalink's `:title`, `:slug` or `:filename`: `text` made a path, then read as a URL
        and written again (Hugo's PathSpec.URLize), which loses a `#` that ends it and is its
        first: whatever follows the first `#` is a fragment, and an empty one is not written
        (`Learning C#` is learning-c, `C# notes` c#-notes)."""
        made = self._urlize(text)
        return made[:-1] if made.find("#") == len(made) - 1 else made

    def _default_path(self, post):
        """/<section>/<slug or name>/ as Hugo makes it: each part from the file's path made a path
        after Hugo's own normalizing (lower-cased, its spaces hyphens) unless disablePathToLower;
        the slug made a path as it is written."""
        read = [post.section] if post.section else []
        parts = [self._urlize(_normalize(part) if self.lowercase else part) for part in read]
        slug = post.fields.get("slug")
        if isinstance(slug, (str, int)) and str(slug).strip():
            parts.append(self._urlize(str(slug)))
        else:
            parts.append(self._urlize(_normalize(post.name) if self.lowercase else post.name))
        return "".join(f"/{part}" for part in parts if part) + "/"

    def _permalink(self, pattern, post):
        """The section's permalink pattern with the page's values, as Hugo expands it: the title,
        slug and file name each made a path (`_urlize`), the whole query-unescaped (a `+` is a
        space), cleaned, and made a path again."""
        date = date_of(post.fields.get("date")) or date_of(post.fields.get("publishDate"))
        title = self._token(str(post.fields.get("title") or post.name))
        slug = post.fields.get("slug")
        slug = self._token(str(slug)) if isinstance(slug, (str, int)) and str(slug).strip() else None
        filename = self._token(post.name)
        values = {
            "section": post.section.split("/")[0],
            "sections": post.section,
            "title": title,
            "slug": slug or title,
            "filename": filename,
            "contentbasename": filename,
            "slugorfilename": slug or filename,
            "slugorcontentbasename": slug or filename,
        }
        if date:
            values.update(
                year=f"{date.year:04d}", month=f"{date.month:02d}", monthname=MONTHS[date.month - 1],
                day=f"{date.day:02d}", yearday=f"{date.timetuple().tm_yday}",
                weekday=str(date.isoweekday() % 7), weekdayname=date.strftime("%A"),
            )  # fmt: skip
        path = re.sub(r":(\w+)", lambda m: values.get(m[1], m[0]), pattern)
        path = unquote_plus(path)  # Hugo's url.QueryUnescape of the expanded pattern
        trailing = "/" if path.endswith("/") else ""
        # Go's path.Clean (no `.`, `..` nor trailing slash: `/c  /` is /c/), then made a path.
        path = self._urlize(posixpath.normpath("/" + re.sub(r"/{2,}", "/", path.lstrip("/"))))
        return path if path.endswith("/") else path + trailing

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
        converted = shortcodes.convert(post, body, context, self.params)
        if self.heading_attributes:  # `## Install it {#install}`
            converted = anchors.heading_attributes(post, converted, body, anchors.GOLDMARK)
        return deflists.convert(post, converted, body) if self.definition_lists else converted


def _dig(config, *keys):
    """The table at `keys` of the (lower-cased) config, {} where there is none."""
    for key in keys:
        config = config.get(key) if isinstance(config, dict) else None
    return config if isinstance(config, dict) else {}


def _main_menu(config):
    """The entries of a config's (or a language's settings') main menu: `menus.main` or `menu.main`."""
    menus = config.get("menus") or config.get("menu")
    main = menus.get("main") if isinstance(menus, dict) else None
    return main if isinstance(main, list) else []


def _front_matter_weight(fields):
    """The page's place in the main menu its front matter puts it in (`menu: main`, `menu:
    [main]`, `menu: {main: {weight: 2}}`, Hugo's `menus` too), or None."""
    menu = fields.get("menu", fields.get("menus"))
    weight = fields.get("weight", 0)
    if isinstance(menu, dict) and "main" in menu:
        weight = menu["main"].get("weight", weight) if isinstance(menu["main"], dict) else weight
    elif not (menu == "main" or (isinstance(menu, list) and "main" in menu)):
        return None
    if isinstance(weight, str) and weight.strip().isdigit():
        return int(weight)
    return weight if isinstance(weight, int) and not isinstance(weight, bool) else 0


def _ranks(keys, order):
    """{key: its place among `keys` sorted by `order`}."""
    return {key: rank for rank, key in enumerate(sorted(keys, key=order))}


def _tie(page):
    """What the site's header orders pages of one `order` by: their slugs (near enough here)."""
    return (text_of(page.fields.get("slug")) or page.name).lower()


def _bundle_of(path, bundles):
    return next(folder for folder in path.parents if folder in bundles)


def _headless(fields):
    build = fields.get("build") or fields.get("_build")
    never = isinstance(build, dict) and build.get("render") in ("never", False, "false")
    return fields.get("headless") is True or never


# Go's unicode.IsSpace: Python's str.isspace() less the separators U+001C to U+001F.
GO_SPACES = frozenset("\t\n\v\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | frozenset(
    map(chr, range(0x2000, 0x200B))
)
HEX = frozenset("0123456789abcdefABCDEF")


def _urlize(text, lowercase=True, remove_accents=False):
    """`text` made a path as Hugo makes one (PathSpec.MakePathSanitized, which its `urlize` and
    permalinks' `:title`, `:slug` and `:filename` use, and every page's path): `_sanitize`d, its
    accents removed with `removePathAccents`, lower-cased unless `disablePathToLower`."""
    text = _sanitize(text)
    if remove_accents:  # Hugo's text.RemoveAccentsString: NFD, no nonspacing marks, NFC
        text = unicodedata.normalize("NFD", text)
        text = "".join(char for char in text if unicodedata.category(char) != "Mn")
        text = unicodedata.normalize("NFC", text)
    return _go_lower(text) if lowercase else text


def _sanitize(text):
    """Hugo's paths.Sanitize: the characters a path may hold kept (letters, digits, marks,
    `. / \\ _ # + ~ - @`, a `%` before two hex digits), every other dropped; a run of spaces
    becomes one hyphen, written only before the next character kept, and never after an
    explicit hyphen (nor before one: `a - b` is `a-b`); leading and trailing spaces go."""
    kept, hyphen, was_hyphen = [], False, False
    for index, char in enumerate(text):
        if _allowed(text, index, char):
            was_hyphen = char == "-"
            if hyphen and not was_hyphen:
                kept.append("-")
            hyphen = False
            kept.append(char)
        elif kept and not was_hyphen and char in GO_SPACES:
            hyphen = True
    return "".join(kept)


def _allowed(text, index, char):
    """Hugo's isAllowedPathCharacter."""
    if char == " ":
        return False
    category = unicodedata.category(char)
    return (
        category[0] == "L"  # unicode.IsLetter
        or category == "Nd"  # unicode.IsDigit
        or char in "./\\_#+~-@"
        or category[0] == "M"  # unicode.IsMark
        or (char == "%" and index + 2 < len(text) and text[index + 1] in HEX and text[index + 2] in HEX)
    )


def _normalize(path):
    """Hugo's paths.NormalizePathStringBasic, which a content file's path is read through: lower-
    cased, its spaces (U+0020 only) hyphens."""
    return _go_lower(path).replace(" ", "-")


def _go_lower(text):
    """Go's strings.ToLower: each character's simple lower case (no final sigma, İ is i)."""
    return "".join("i" if char == "\u0130" else char.lower() for char in text)


def _flag(value):
    """A config's boolean as Hugo casts it (cast.ToBool: a number not 0, strconv.ParseBool's
    strings: "true", "True", "TRUE", "t", "T", "1")."""
    if isinstance(value, (bool, int, float)):
        return bool(value)
    return isinstance(value, str) and value.strip() in ("true", "True", "TRUE", "t", "T", "1")


def _lower(value, depth=0):
    """A mapping with its keys lower-cased, at every level (Hugo's keys are case-insensitive)."""
    if isinstance(value, dict) and depth < 20:
        return {str(key).lower(): _lower(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list) and depth < 20:
        return [_lower(item, depth + 1) for item in value]
    return value


def _merge(into, data):
    """`data` merged into `into`, mapping by mapping, `data`'s values winning."""
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value
