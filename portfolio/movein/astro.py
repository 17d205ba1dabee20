"""Astro blogs (AstroPaper's shape): posts in src/data/blog/ (AstroPaper 5) or src/content/blog/
(content collections), `pubDatetime` or `pubDate`, public files in public/, old addresses
/posts/<slug>/."""

import re

from .posts import MARKDOWN_SUFFIXES, NotASite, Skip, leads_out, read_post, walk

BLOG_DIRS = ("src/data/blog", "src/content/blog")
# `title: "AstroPaper"` in src/config.ts's SITE, `SITE_TITLE = "..."` in the blog starter's consts.
TITLE = re.compile(r"""(?:\btitle\s*:|\bSITE_TITLE\s*=)\s*(["'`])(?P<value>[^"'`\n]+)\1""")
DESCRIPTION = re.compile(r"""(?:\bdesc\s*:|\bSITE_DESCRIPTION\s*=)\s*(["'`])(?P<value>[^"'`\n]+)\1""")
AUTHOR = re.compile(r"""\bauthor\s*:\s*(["'`])(?P<value>[^"'`\n]+)\1""")
URL = re.compile(r"""\b(?:site|website)\s*:\s*(["'`])(?P<value>https?://[^"'`\s]+)\1""")


# How much of each config file the title, description, author and address are looked for in.
CONFIG_MAX = 1_000_000


class Astro:
    label = "Astro"
    date_keys = ("pubDatetime", "pubDate", "date", "publishDate")
    image_keys = ("ogImage", "heroImage", "image", "cover")
    # Keys that are mapped (title... ) or mean nothing on this site.
    known = {"title", "description", "tags", "categories", "draft", "slug", *date_keys}

    def __init__(self, source):
        self.source = source
        self.skipped = []  # files a link leads out of SOURCE: Skips, reported first
        self.blog = next((source / d for d in BLOG_DIRS if (source / d).is_dir()), None)
        if self.blog is None:
            raise NotASite(f"{source} is not an Astro blog: it has neither {' nor '.join(BLOG_DIRS)}/")
        outside = leads_out(self.blog, source)
        if outside:
            raise NotASite(f"{source}: its {self.blog.relative_to(source)}/ {outside}")
        config = ""
        for name in ("src/config.ts", "src/config.js", "src/consts.ts", "src/consts.js", "astro.config.mjs",
                     "astro.config.ts", "astro.config.js"):  # fmt: skip
            if (source / name).is_file():
                outside = leads_out(source / name, source)
                if outside:
                    self.skipped.append(Skip(name, outside))
                    continue
                config += (source / name).read_text(errors="replace")[:CONFIG_MAX] + "\n"
        self.title = _found(TITLE, config)
        self.description = _found(DESCRIPTION, config)
        self.author = _found(AUTHOR, config)
        self.url = _found(URL, config).rstrip("/")

    def entries(self):
        yield from self.skipped
        for path in walk(self.blog):
            rel = path.relative_to(self.source).as_posix()
            if path.suffix == ".mdx":
                yield Skip(rel, "MDX: its components cannot be converted; move it by hand")
            elif path.suffix.lower() in MARKDOWN_SUFFIXES:
                yield read_post(path, self.source, path.stem)
            # other files beside the posts are images and the like, copied when a post uses them

    def old_addresses(self, post):
        """/posts/<slug>/: the front matter's slug, else the file's path under the blog folder,
        each segment slugified as AstroPaper does (folders starting with `_` left out)."""
        if isinstance(post.fields.get("slug"), str) and post.fields["slug"].strip():
            return [f"/posts/{_segment(post.fields['slug'])}/"]
        folders = post.path.parent.relative_to(self.blog).parts
        segments = [_segment(part) for part in folders if not part.startswith("_")]
        return ["/posts/" + "/".join([*segments, _segment(post.path.stem)]) + "/"]

    def local_file(self, post, path):
        """The file a local reference of the post names: `/x.png` is public/x.png, `@/assets/x`
        is src/assets/x, anything else is relative to the post."""
        if path.startswith("/"):
            return self.source / "public" / path.lstrip("/")
        if path.startswith(("@/", "~/")):
            return self.source / "src" / path[2:]
        return post.path.parent / path

    def convert_body(self, post, body, context):
        return body


def _segment(text):
    return re.sub(r"[^\w]+", "-", text.lower()).strip("-") or "post"


def _found(pattern, text):
    match = pattern.search(text)
    return match["value"].strip() if match else ""
