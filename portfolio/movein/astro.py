"""Astro blogs: the posts collection as the content config defines it (tsconfig.py: a glob()
loader's folder anywhere, or a legacy src/content/<name>/ folder), else AstroPaper's src/data/blog/
or src/content/blog/; the old addresses from the route that renders it, in the form the
astro.config's `base`, `trailingSlash` and `build.format` gave them; src/pages/*.md as pages;
public files in public/."""

import os
import posixpath
import re
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from . import directives, tsconfig
from .posts import MARKDOWN_SUFFIXES, NotASite, Post, Skip, leads_out, read_post, walk

BLOG_DIRS = ("src/data/blog", "src/content/blog")
CONTENT_CONFIGS = [f"{folder}.{ext}" for folder in ("src/content.config", "src/content/config")
                   for ext in ("ts", "mts", "js", "mjs")]  # fmt: skip
POSTS_NAMES = ("blog", "posts", "post")
MODULE_EXTENSIONS = (".ts", ".mts", ".js", ".mjs")  # a module an import names without its own
# A route's file or folder naming one entry: `[...slug]`, `[slug]`, `[...id]`, `[post]`.
DYNAMIC = re.compile(r"\[(?:\.\.\.)?(?:slug|id|post|path)\]")
GET_COLLECTION = re.compile(r"""\bgetCollection\(\s*["'`](?P<name>[\w-]+)["'`]""")
# `title: "AstroPaper"` in src/config.ts's SITE, `SITE_TITLE = "..."` in the blog starter's consts.
TITLE = re.compile(r"""(?:\btitle\s*:|\bSITE_TITLE\s*=)\s*(["'`])(?P<value>[^"'`\n]+)\1""")
DESCRIPTION = re.compile(r"""(?:\bdesc\s*:|\bSITE_DESCRIPTION\s*=)\s*(["'`])(?P<value>[^"'`\n]+)\1""")
AUTHOR = re.compile(r"""\bauthor\s*:\s*(["'`])(?P<value>[^"'`\n]+)\1""")
URL = re.compile(r"""\b(?:site|website)\s*:\s*(["'`])(?P<value>https?://[^"'`\s]+)\1""")

# Astro's config files, in the order it looks for them: the first found is the one it reads.
ASTRO_CONFIGS = [f"astro.config.{ext}" for ext in ("mjs", "js", "ts", "mts")]
# The astro.config options that place the pages, and Astro's defaults for them.
FORMATS = ("directory", "file", "preserve")
TRAILING_SLASHES = ("ignore", "always", "never")

# How much of each config file the title, description, author and address are looked for in (as
# much as tsconfig.py reads of a content config).
CONFIG_MAX = tsconfig.CONFIG_MAX
# A feed's endpoint (src/pages/rss.xml.js: /rss.xml) and a paginated list's route.
FEED = re.compile(r"(?:rss|feed|atom)\.xml\.(?:js|ts|mjs|mts)")
LIST_PAGES = ("[...page].astro", "[page].astro")


class Astro:
    label = "Astro"
    date_keys = ("pubDatetime", "pubDate", "published", "publishDate", "date")
    image_keys = ("ogImage", "image", "heroImage", "cover", "coverImage")
    # Keys that are mapped (title... ) or mean nothing on this site.
    known = {"title", "description", "tags", "categories", "draft", "slug", *date_keys}

    def __init__(self, source):
        self.source = source
        self.skipped = []  # files a link leads out of SOURCE: Skips, reported first
        routes = _routes(source)
        self.collection, self.blog, self.pattern = self._posts_collection(routes)
        outside = leads_out(self.blog, source)
        if outside:
            raise NotASite(f"{source}: its {self.blog.relative_to(source)}/ {outside}")
        # AstroPaper's posts: addresses made by its getPath() (folders starting with `_` left out).
        self.astropaper = self.blog == source / "src/data/blog"
        # AstroPaper renders its posts with src/pages/posts/[...slug]/index.astro: an index route.
        self.route, self.route_index = routes.get(self.collection) or (
            "/posts/" if self.astropaper or not routes else f"/{self.collection}/",
            self.astropaper,
        )
        config, astro_config, self.config_name = "", "", ""
        for name in ("src/config.ts", "src/config.js", "src/consts.ts", "src/consts.js", *ASTRO_CONFIGS):
            if (source / name).is_file():
                outside = leads_out(source / name, source)
                if outside:
                    self.skipped.append(Skip(name, outside))
                    continue
                text = (source / name).read_text(errors="replace")[:CONFIG_MAX] + "\n"
                config += text
                if name.startswith("astro.config.") and not astro_config:  # the one Astro reads
                    astro_config, self.config_name = text, name
        self.title = _found(TITLE, config)
        self.description = _found(DESCRIPTION, config)
        self.author = _found(AUTHOR, config)
        self.url = _found(URL, config).rstrip("/")
        self.notes = []  # what the report says of the config (an option not read, and why)
        self._read_placement(astro_config)
        # i18n: each locale's posts in a folder of its own under the collection's, named by its
        # path (Astro's recipe: blog/en/post.md, blog/fr/post.md, blog/french/ for a locale
        # written `{ path: "french", codes: ["fr"] }`); the default's are the originals.
        default, locales = tsconfig.i18n(astro_config)
        self.locales = {path.lower(): code.lower() for path, code in locales.items()}  # {folder: code}
        self.default_locale = default.lower()  # its path
        self.default_language = self.locales.get(self.default_locale, self.default_locale) or "en"

    def _read_placement(self, text):
        """The astro.config's options that decide each page's address: `base` (the path the
        site was served under: `/my-blog/`, `my-blog` and `/my-blog` are one, as Astro makes them),
        `build.format` and `trailingSlash`. One written so that it cannot be read without running
        the file (`process.env.BASE`) is read as Astro's default, with a note."""
        options = tsconfig.config_options(text, ("base", "site", "trailingSlash", "build.format"))
        base = options.get("base") or ""
        self.base_path = posixpath.normpath("/" + base.strip("/")).rstrip("/") if base else ""
        self.format = self._option(options, "build.format", FORMATS)
        self.trailing_slash = self._option(options, "trailingSlash", TRAILING_SLASHES)
        if "base" in options and options["base"] is None:
            self._note("base", "cannot be read without running it: the old addresses are read as served "
                       "at the root; put the base path before them by hand if the site had one")  # fmt: skip
        # Astro places the pages under `base` alone: `site`'s own path (a leftover of Astro
        # before `base`) moves none of them (Astro's dev server too serves `base`, not it).
        site_path = urlsplit(options.get("site") or "").path.rstrip("/")
        if site_path and site_path != self.base_path:
            self._note("site", f"has the path {site_path}, which Astro does not serve the pages under "
                       f"(`base` alone places them: {self.base_path or 'none here'}); the old addresses "
                       "are read so")  # fmt: skip

    def _option(self, options, name, allowed):
        """The option's value, else Astro's default (the first of `allowed`), with a note when it
        is written and not read or not one of `allowed`."""
        value = options.get(name)
        if value in allowed:
            return value
        if name in options:
            written = "cannot be read without running it" if value is None else f"is {value!r}"
            self._note(name, f"{written}: read as Astro's default, {allowed[0]!r}")
        return allowed[0]

    def _note(self, name, text):
        self.notes.append(f"{self.config_name}: `{name}` {text}")

    def _posts_collection(self, routes):
        """(name, folder, glob pattern or None) of the posts: the content config's collection named
        blog, posts or post, else the one a `[...slug].astro` route of `routes` renders; without a
        content config, AstroPaper's src/data/blog/ or a legacy src/content/<blog|posts|post>/."""
        source = self.source
        config = next((source / name for name in CONTENT_CONFIGS if (source / name).is_file()), None)
        if config is not None and (outside := leads_out(config, source)):
            self.skipped.append(Skip(config.relative_to(source).as_posix(), outside))
            config = None
        if config is None:
            for folder in (*BLOG_DIRS, *(f"src/content/{name}" for name in POSTS_NAMES[1:])):
                if (source / folder).is_dir():
                    return PurePosixPath(folder).name, source / folder, None
            raise NotASite(f"{source} is not an Astro blog: it has neither {' nor '.join(BLOG_DIRS)}/")
        rel = config.relative_to(source).as_posix()
        found = tsconfig.collections(
            config.read_text(errors="replace"), lambda spec: self._module(config, spec)
        )
        name = next((n for n in (*POSTS_NAMES, *routes) if n in found), None)
        if name is None:
            names = ", ".join(sorted(found)) or "none"
            raise NotASite(
                f"{source}: {rel} defines no collection named {', '.join(POSTS_NAMES)} and no "
                f"[...slug].astro route renders one (its collections: {names})"
            )
        collection = found[name]
        if collection.loader is None:  # a legacy collection: src/content/<name>/
            folder = source / "src/content" / name
        elif collection.base is None:
            raise NotASite(f"{source}: {rel}: the collection {name!r}: {collection.unread}; not read")
        else:
            base = PurePosixPath(collection.base)
            if base.is_absolute() or ".." in base.parts:
                raise NotASite(f"{source}: {rel}: the collection {name!r}'s base {collection.base!r} "
                               "leads out of SOURCE: not read")  # fmt: skip
            folder = source / base
        if not folder.is_dir():
            missing = folder.relative_to(source)
            raise NotASite(f"{source}: {rel}: the collection {name!r} has no folder {missing}/")
        pattern = tsconfig.glob_pattern(collection.pattern) if collection.pattern else None
        return name, folder, pattern

    def _module(self, config, specifier):
        """(text, None) of the module of SOURCE an import of the content config names (`./consts`,
        `../consts.js`, `./paths/index.ts`, `@/consts` as src/consts), or (None, why not): a
        package, a file outside SOURCE or a link out of it, no such file."""
        if specifier.startswith(("@/", "~/")):  # the alias local_file() reads too
            written = self.source / "src" / specifier[2:]
        elif specifier.startswith(("./", "../")):
            written = config.parent / specifier
        else:
            return None, "a package, not a file of SOURCE: not read"
        base = Path(os.path.normpath(os.path.abspath(written)))
        if not base.is_relative_to(os.path.abspath(self.source)):
            return None, "which is outside SOURCE: not read"
        stem = base.with_suffix("") if base.suffix in (".js", ".mjs") else base  # TypeScript's `./x.js`
        candidates = [base, *(stem.with_name(stem.name + ext) for ext in MODULE_EXTENSIONS),
                      *(base / f"index{ext}" for ext in MODULE_EXTENSIONS)]  # fmt: skip
        found = next((path for path in candidates if path.is_file()), None)
        if found is None:
            return None, "which is no file of SOURCE"
        outside = leads_out(found, self.source)
        if outside:
            return None, f"which {outside}"
        return found.read_text(errors="replace")[:CONFIG_MAX], None

    def entries(self):
        yield from self.skipped
        for path in walk(self.blog):
            rel = path.relative_to(self.source).as_posix()
            inside = path.relative_to(self.blog).as_posix()
            if self.pattern is not None and not self.pattern.fullmatch(inside):
                if path.suffix.lower() in {*MARKDOWN_SUFFIXES, ".mdx"}:
                    yield Skip(rel, f"not matched by the {self.collection} collection's glob() pattern")
                continue
            if path.suffix == ".mdx":
                yield Skip(rel, "MDX: its components cannot be converted; move it by hand")
            elif path.suffix.lower() in MARKDOWN_SUFFIXES:
                name = path.parent.name if path.stem == "index" and path.parent != self.blog else path.stem
                post = read_post(path, self.source, name)
                locale = self._locale(path)
                if isinstance(post, Post) and locale and locale != self.default_locale:
                    post.language = self.locales[locale]  # a translation of the default's post of that name
                yield post
            # other files beside the posts are images and the like, copied when a post uses them
        yield from self._pages()

    def _pages(self):
        """src/pages/**/*.md: each a standalone page (its address the file's path)."""
        pages = self.source / "src/pages"
        if not pages.is_dir() or leads_out(pages, self.source):
            return
        for path in walk(pages):
            rel = path.relative_to(self.source).as_posix()
            inside = PurePosixPath(path.relative_to(pages).as_posix())
            if path.suffix == ".mdx":
                yield Skip(rel, "an MDX page: its components cannot be converted; move it by hand")
                continue
            if path.suffix.lower() not in MARKDOWN_SUFFIXES:
                continue
            parts = inside.with_suffix("").parts
            index = parts[-1] == "index"
            parts = parts[:-1] if index else parts
            if not parts:
                yield Skip(rel, "the home page: this site has its own")
                continue
            page = read_post(path, self.source, "-".join(parts), kind="page")
            if isinstance(page, Post):
                page.address = self._served("/" + "/".join(parts), index)
            yield page

    def _locale(self, path):
        """The path of the i18n locale whose folder (the first under the collection's) holds
        `path`, lower-cased, or None."""
        first = path.relative_to(self.blog).parts[0]
        return first.lower() if first.lower() in self.locales and first != path.name else None

    def old_addresses(self, post):
        """The route's address: `<route><id>/`, the id being the front matter's slug or the file's
        path under the collection's folder, each segment slugified as Astro does (an index.md is
        its folder's); AstroPaper's as its getPath() makes it (folders starting with `_` left out).
        Each under the base path, in the form the build wrote it (_served)."""
        if post.kind == "page":
            return [post.address]
        if isinstance(post.fields.get("slug"), str) and post.fields["slug"].strip():
            return [self._served(self.route + post.fields["slug"].strip().strip("/"), self.route_index)]
        folders, prefix = post.path.parent.relative_to(self.blog).parts, ""
        if locale := self._locale(post.path):  # Astro's i18n routing: the default locale's at
            folders = folders[1:]  # the route, another's under /<its path>/ (prefixDefaultLocale: false)
            prefix = f"/{locale}" if post.language else ""
        elif self.astropaper:
            segments = [_segment(part) for part in folders if not part.startswith("_")]
            path = self.route + "/".join([*segments, _segment(post.path.stem)])
            return [self._served(path, self.route_index)]
        parts = [*folders, post.path.stem] if post.path.stem != "index" else list(folders)
        if not parts:
            return []
        return [
            self._served(
                prefix + self.route + "/".join(_github_slug(part) for part in parts), self.route_index
            )
        ]

    def _served(self, path, index):
        """The address the old site served the page of `path` (`/blog/x`) at, under its base
        path: `/blog/x.html` with `build.format: "file"`, and with "preserve" for a page whose
        source is no index (`[...slug].astro`, `about.md`, not `[...slug]/index.astro`); else
        its folder's, `/blog/x/` (`/blog/x` with `trailingSlash: "never"`), as Astro links it."""
        if self.format == "file" or (self.format == "preserve" and not index):
            return f"{self.base_path}{path}.html"
        return self.base_path + path + ("" if self.trailing_slash == "never" else "/")

    def site_moves(self):
        """[(old address, new address)] of the old site's own addresses (site.yaml's `redirects`):
        its home under the config's base, its feeds (an endpoint src/pages/rss.xml.js,
        feed.xml.ts, as @astrojs/rss is used) and its posts' list (the route's
        src/pages/<route>/index.astro or [...page].astro), under the base as the build wrote them."""
        pages = self.source / "src/pages"
        found = [(self.base_path + "/", "/")] if self.base_path else []  # the home under the base
        if not pages.is_dir() or leads_out(pages, self.source):
            return found
        for path in walk(pages):
            inside = path.relative_to(pages).as_posix()
            if FEED.fullmatch(path.name) and not leads_out(path, self.source):
                found.append((f"{self.base_path}/{inside.rsplit('.', 1)[0]}", "/feed.xml"))
        folder = pages / self.route.strip("/")
        lists = [folder / "index.astro", folder.with_suffix(".astro"), *(folder / n for n in LIST_PAGES)]
        if self.route != "/" and any(path.is_file() for path in lists):
            found.append((self._served(self.route.rstrip("/"), True), "/articles"))
        return found

    def local_file(self, post, path):
        """The file a local reference of the post names: `/x.png` is public/x.png (and so is
        `/my-blog/x.png` under the base path), `@/assets/x` is src/assets/x, anything else is
        relative to the post."""
        if path.startswith("/"):
            relative = path.lstrip("/")
            if self.base_path and path.startswith(self.base_path + "/"):
                relative = path[len(self.base_path) + 1 :]
            return self.source / "public" / relative
        if path.startswith(("@/", "~/")):
            return self.source / "src" / path[2:]
        return post.path.parent / path

    def convert_body(self, post, body, context):
        return directives.convert(post, body)


def _routes(source):
    """{collection: (its address prefix, whether its route is an index)} of the `[...slug].astro`
    (`[slug].astro`, `[...id].astro`, `[...slug]/index.astro`: an index) routes under src/pages
    and the collection each one's getCollection() reads."""
    pages = source / "src/pages"
    found = {}
    if not pages.is_dir() or leads_out(pages, source):
        return found
    for path in walk(pages):
        if path.suffix != ".astro":
            continue
        parts = path.relative_to(pages).with_suffix("").parts
        index = parts[-1] == "index" and len(parts) > 1
        parts = parts[:-1] if index else parts
        if not parts or not DYNAMIC.fullmatch(parts[-1]) or any("[" in part for part in parts[:-1]):
            continue
        if leads_out(path, source):
            continue
        read = GET_COLLECTION.search(path.read_text(errors="replace")[:CONFIG_MAX])
        if read:
            found.setdefault(read["name"], ("/" + "".join(f"{part}/" for part in parts[:-1]), index))
    return found


def _github_slug(text):
    """github-slugger's slug, as Astro makes an entry's id of its path: lowercased, punctuation
    removed, spaces made hyphens."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def _segment(text):
    return re.sub(r"[^\w]+", "-", text.lower()).strip("-") or "post"


def _found(pattern, text):
    match = pattern.search(text)
    return match["value"].strip() if match else ""
