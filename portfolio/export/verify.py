"""Step 4 of a build: the checks the new files must pass before they replace the live ones.

Per file (on every file rendered, on the worker pool when there are many): API JSON validates against the
operation's schema in openapi.json, list counts match their arrays, every `url`/`apiUrl` resolves
to a built file as a host serves it, and no draft is referenced anywhere (no file, no link to its
address, no JSON item with its slug or title).
Every XML file (the feed, the sitemaps) must be well-formed, every JSON file must parse, and
llms.txt must have the structure its readers parse (llms_txt_problems).
Every HTML page's media references (img src and srcset, og:image, JSON-LD images) resolve.
The search index's fragments (search_index.py) hold no draft's address, slug or title either.
Across files (after rendering): lists and detail files agree, and every link into the site from
llms.txt, the sitemaps and the feed resolves. The surfaces beyond the spec (check_agent_surfaces):
every markdown twin rendered is its JSON document rewritten, each published item has one and no
draft has, llms-full.txt is the summary and every twin, newest first, and every link of the
API catalog resolves. A file carried over from the previous build passed the same checks then,
unless the drafts or the address changed since: then its bytes are searched for drafts again.
"""

import gzip
import hashlib
import html
import json
import re
from contextlib import closing
from itertools import accumulate
from urllib.parse import unquote, urlsplit
from xml.parsers import expat

from api.schema_check import ResponseCheck
from pages import skills
from pages.negotiation import MARKDOWN_PAGE
from pages.twins import SEPARATOR, article_markdown, newest_first, project_markdown
from pages.views import TRAINING_CRAWLERS
from portfolio.workers import map_chunks

from . import plan
from .hosts import served_file
from .limits import host_limit_problems
from .search_index import FOLDER
from .state import BuildFailed

SEARCH_FOLDER = FOLDER + "/"
LIST_KEYS = {"api/v1/projects.json": "projects", "api/v1/articles.json": "articles"}
# The files whose links into the site must resolve, and how their links are written: llms.txt
# and the feeds (the site's and each tag's). A feed's own <link>s and ids only: its entries'
# bodies are escaped HTML (`&lt;a href="..."`), whose links are the pages' own.
LLMS_LINK = re.compile(r"\]\((?P<url>[^)\s]+)\)")
FEED_LINK = re.compile(r"""(?:<link href="(?P<url>[^"]+)")|(?:<id>(?P<id>[^<]+)</id>)""")
LINK_SOURCE = re.compile(r"llms\.txt|feed\.xml|(tags|series)/[^/]+/feed\.xml")
# Where a draft could be named, in bytes: its address, its JSON slug, its JSON title; the group
# is what follows the prefix (a slug's whole run of slug characters, or a JSON string).
ADDRESS = re.compile(rb"/articles/([a-z0-9_-]*)")
SLUG_FIELD = re.compile(rb'"slug":"([a-z0-9_-]*)"')
# A translation's address (/fr/articles/<slug>, /fr/<page>): a draft translation's must be nowhere.
TRANSLATED_ADDRESS = re.compile(rb"(/[a-z]{2,3}(?:-[a-z0-9]{2,8}){0,2}/(?:articles/|projects/)?[a-z0-9_-]*)")
TITLE_FIELD = re.compile(rb'"title":("[^"\\]*(?:\\.[^"\\]*)*")')  # unrolled: no alternation per character
SITEMAP_FILE = re.compile(r"sitemap[^/]*\.xml")
SITEMAP_LOC = re.compile(r"<loc>(?P<url>[^<]+)</loc>")
# Where a redirect page (hosts.redirect_page) names its target: the canonical and plain links'
# href, the refresh's url.
REDIRECT_TARGET = re.compile(r'(?:href="|; url=)([^"]+)"')
# Media addresses in a page: attribute values (src, href, og:image's content), srcset candidates
# and JSON-LD images, root-relative or absolute. A quoted value holding /media/ is found first
# (the search skips to each quote), then what stands before it: a pattern starting with the
# attribute names would be tried at every character of the page.
MEDIA_VALUE = re.compile(r'"(?P<url>[^"\s]*/media/[^"\s]*)"')
MEDIA_ATTRIBUTE = re.compile(r'(?:(?:src|href|content)=|"image":\s*)\Z')
SRCSET = re.compile(r'srcset="(?P<set>[^"]*)"')
ITEM_JSON = re.compile(r"api/v1/(?P<kind>projects|articles)/(?P<slug>[^/]+)\.json")
TWIN = re.compile(r"(?P<kind>projects|articles)/(?P<slug>[^/]+)\.md")
LLMS_FULL_PART = re.compile(r"llms-full-(\d+)\.txt")
TWIN_MARKDOWN = {"projects": project_markdown, "articles": article_markdown}
CONTENT_SIGNAL = re.compile(r"Content-Signal: search=(yes|no), ai-input=(yes|no), ai-train=(yes|no)")
SKILL_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")

# llms.txt (llmstxt.org): an H1, a `> ` summary, free text, then `## ` sections of link items.
LLMS_ITEM = re.compile(r"- \[[^\[\]\n]+\]\([^()\s]+\)(?:: [^\n]*)?")


def xml_problems(path, body):
    parser = expat.ParserCreate()
    try:
        parser.Parse(body, True)
    except expat.ExpatError as exc:
        return [f"{path}: not well-formed XML: {expat.errors.messages[exc.code]} at line {exc.lineno}, "
                f"column {exc.offset + 1}"]  # fmt: skip
    return []


def json_problems(path, body):
    try:
        json.loads(body)
    except ValueError as exc:
        return [f"{path}: not JSON ({exc})"]
    return []


def llms_txt_problems(path, body):
    """What an llms.txt reader would misread: the H1 title first, one H1 only, a `> ` summary
    line, and nothing but `- [name](url): notes` items under each `## ` section."""
    lines = body.decode("utf-8", "replace").split("\n")
    problems = []
    if not re.fullmatch(r"# \S.*", lines[0]):
        problems.append(f"{path}: line 1: expected the title as '# Title'")
    if not (len(lines) > 2 and lines[1] == "" and re.fullmatch(r"> \S.*", lines[2])):
        problems.append(f"{path}: line 3: expected the summary as '> Summary' after a blank line")
    in_section = False
    for number, line in enumerate(lines[1:], 2):
        if line.startswith("# "):
            problems.append(f"{path}: line {number}: a second '# ' title")
        elif line.startswith("## "):
            in_section = True
        elif in_section and line and not LLMS_ITEM.fullmatch(line):
            problems.append(
                f"{path}: line {number}: expected a '- [name](url): notes' item; got {line[:80]!r}"
            )
    return problems


class Verifier:
    def __init__(self, base_url, files, openapi, drafts, redirect_pages=(), draft_translations=()):
        """`files`: every path of the new build; `drafts`: [(slug, title)] of every draft;
        `redirect_pages`: the files among them that send the reader from an old address on
        (hosts.redirect_pages), which are no item's page."""
        self.base_url = base_url
        self.files = files
        self.redirect_pages = set(redirect_pages)
        self.schema = ResponseCheck(openapi)
        self.drafts = drafts
        self.served = {}  # {url: whether the build serves it}, for check_link
        # Where a surface would reference a draft: its address (in a link, a feed id, a sitemap
        # loc, a JSON url) and its JSON slug and title fields. Not prose: a published article may
        # say the same words as a draft's title, and that is no leak. For each place, the drafts'
        # values of what follows its prefix.
        titles = {}
        for slug, title in drafts:
            for encoded in (json.dumps(title), json.dumps(title, ensure_ascii=False)):
                titles[encoded.encode()] = f"articles/{slug}.md"
        slugs = {slug.encode(): f"articles/{slug}.md" for slug, _ in drafts}
        self.leaks = [
            ("address", ADDRESS, slugs),
            ("slug", SLUG_FIELD, slugs),
            ("title", TITLE_FIELD, titles),
        ]
        # A draft (or scheduled) translation (plan.draft_translations): its address under its
        # language's prefix, in a link, a sitemap, a feed or an alternate of its original.
        if draft_translations:
            addresses = {address.encode(): rel for rel, address, _ in draft_translations}
            self.leaks.append(("address", TRANSLATED_ADDRESS, addresses))
        self.any_drafts = bool(drafts or draft_translations)

    # --- per file ---------------------------------------------------------------------------

    def check_file(self, path, body):
        """The problems of one file's bytes."""
        if path.startswith("media/"):
            return []  # content's own files: pictures, not surfaces that could leak a draft
        if path.startswith(SEARCH_FOLDER):
            return self.check_search_file(path, body)
        problems = self.draft_leaks(path, body)
        if path.endswith(".html"):
            problems += self.check_media(path, body)
        if path.startswith("api/") and path.endswith(".json"):
            try:
                data = json.loads(body)
            except ValueError as exc:
                return [*problems, f"{path}: not JSON ({exc})"]
            problems += self.check_api_json(path, data)
        elif path.endswith(".json"):
            problems += json_problems(path, body)
        elif path.endswith(".xml"):
            problems += xml_problems(path, body)
        elif path == "llms.txt":
            problems += llms_txt_problems(path, body)
        return problems

    def check_search_file(self, path, body):
        """A file of the search index (search_index.py). Pagefind's are gzipped; its fragments
        hold each page's address, title and text, so a draft indexed would show there."""
        if path.endswith(".pf_fragment"):
            try:
                body = gzip.decompress(body)
            except (OSError, EOFError) as exc:
                return [f"{path}: not a gzipped Pagefind fragment ({exc})"]
            return self.draft_leaks(path, body)
        return json_problems(path, body) if path.endswith(".json") else []

    def draft_leaks(self, path, body):
        """Each draft's address, slug or title wherever the bytes hold one: every value found
        after a prefix (one regular expression each, searched for its literal prefix in C)
        looked up among the drafts'. An address is a slug's whole run of slug characters (slugs
        are [a-z0-9_-]): /articles/draft-two is no leak of `draft`."""
        if not self.any_drafts:
            return []
        found = set()
        for kind, pattern, drafts in self.leaks:
            for value in drafts.keys() & set(pattern.findall(body)):
                found.add(f"{path}: holds the {kind} of unpublished {drafts[value]}")
        return sorted(found)

    def check_api_json(self, path, data):
        errors = self.schema.errors("/" + path, data)
        problems = [f"{path}: does not match openapi.json {error}" for error in errors]
        if path in LIST_KEYS and isinstance(data, dict):
            items = data.get(LIST_KEYS[path], [])
            if data.get("count") != len(items):
                problems.append(f"{path}: count is {data.get('count')} but the list holds {len(items)}")
        else:
            items = [data] if isinstance(data, dict) else []
        for item in items:
            for key in ("url", "apiUrl"):
                if isinstance(item, dict) and key in item:
                    problems += self.check_link(path, item[key])
        return problems

    def check_media(self, path, body):
        """Every media file a page shows or links to is in the build."""
        if b"/media/" not in body:
            return []
        text = body.decode("utf-8", "replace")
        urls = [
            html.unescape(m["url"])
            for m in MEDIA_VALUE.finditer(text)
            if MEDIA_ATTRIBUTE.search(text[max(0, m.start() - 64) : m.start()])
        ]
        for found in SRCSET.finditer(text):
            urls += [c.split()[0] for c in html.unescape(found["set"]).split(",") if c.strip()]
        problems = []
        for url in dict.fromkeys(urls):
            if url.startswith("/"):
                url = self.base_url + url
            problems += self.check_link(path, url)
        return problems

    # --- links ------------------------------------------------------------------------------

    def check_link(self, source, url):
        """A link into the site must resolve to a built file; links elsewhere are not ours."""
        served = self.served.get(url)
        if served is None:  # a list, llms.txt and the sitemaps link to the same 10,000 pages
            served = self.served[url] = self.serves(url)
        return [] if served else [f"{source}: links to {url}, which no built file serves"]

    def serves(self, url):
        """Does the site serve `url`, or is it not the site's?"""
        if not (url == self.base_url or url.startswith(self.base_url + "/")):
            return True
        path = url[len(self.base_url) :] or "/"
        if path.startswith("//") or any(mark in path for mark in "%?#"):  # else it is its own path
            path = unquote(urlsplit(path).path) or "/"
        return served_file(path, self.files) is not None

    # --- across files -----------------------------------------------------------------------

    def check_site(self, read, changed=None):
        """Checks across files; `read(path)` returns a built file's bytes. `changed`: when the
        build has the same files, drafts and address as the previous one, the files to look at:
        those whose bytes changed. A file that did not change is left, as it passed then and
        would pass now."""
        problems = [
            f"{path}: a file for draft articles/{slug}.md"
            for slug, _ in self.drafts
            for path in (f"articles/{slug}.html", f"api/v1/articles/{slug}.json")
            if path in self.files
        ]
        for path, key in LIST_KEYS.items():
            if changed is not None and path not in changed:
                continue
            listed = {item["slug"] for item in json.loads(read(path))[key]}
            for kind, pattern in (
                ("API detail", rf"api/v1/{key}/([^/]+)\.json"),
                ("page", rf"{key}/([^/]+)\.html"),
            ):
                built = {
                    m[1] for m in map(re.compile(pattern).fullmatch, self.files - self.redirect_pages) if m
                }
                if built != listed:
                    problems.append(
                        f"{path}: the list and the {kind} files disagree on {sorted(built ^ listed)[:10]}"
                    )
        for path in sorted(p for p in self.files if LINK_SOURCE.fullmatch(p)):
            if changed is None or path in changed:
                pattern = LLMS_LINK if path == "llms.txt" else FEED_LINK
                for match in pattern.finditer(read(path).decode()):
                    url = html.unescape(match[match.lastgroup])
                    problems += self.check_link(path, url)
        for path in sorted(p for p in self.files if SITEMAP_FILE.fullmatch(p)):
            if changed is None or path in changed:
                for match in SITEMAP_LOC.finditer(read(path).decode()):
                    problems += self.check_link(path, html.unescape(match.group("url")))
        return problems

    def check_redirect_pages(self, read):
        """Each page an old address is written as (REDIRECT_PAGES) sends the reader, by its
        refresh, canonical link and plain link alike, to an address the build serves, and is
        marked noindex."""
        problems = []
        for path in sorted(self.redirect_pages):
            body = read(path).decode()
            urls = set(REDIRECT_TARGET.findall(body))
            if len(urls) != 1 or '<meta name="robots" content="noindex">' not in body:
                problems.append(f"{path}: expected a redirect page with one target and noindex")
                continue
            problems += self.check_link(path, html.unescape(urls.pop()))
        return problems

    # --- beyond the spec: markdown twins, llms-full.txt, the API catalog ----------------------

    def check_agent_surfaces(self, read, size_of, rendered):
        """`rendered`: the paths this build rendered (a carried file was checked when it was made,
        and so was the JSON file it depends on, under the same key). The twins rendered are
        compared with their documents with the per-file checks (check_twins)."""
        problems = [
            f"articles/{slug}.md: a markdown twin for draft articles/{slug}.md"
            for slug, _ in self.drafts
            if f"articles/{slug}.md" in self.files
        ]
        twins = {m.group() for m in map(TWIN.fullmatch, self.files) if m}
        documents = {f"{m['kind']}/{m['slug']}.md" for m in map(ITEM_JSON.fullmatch, self.files) if m}
        for path in sorted(twins ^ documents)[:10]:
            problems.append(f"{path}: {'no API document for this twin' if path in twins else 'no twin'}")
        if set(self.llms_full_parts()) & set(rendered):
            problems += self.check_llms_full(read, size_of, rendered)
        if ".well-known/api-catalog" in rendered:
            problems += self.check_catalog(read(".well-known/api-catalog"))
        problems += self.check_markdown_forms()
        # Read when rendered: a carried file passed these checks when it was made.
        if "robots.txt" in rendered:
            problems += self.check_robots(read("robots.txt").decode())
        if any(path.startswith(".well-known/agent-skills/") for path in rendered):
            problems += self.check_skills(read)
        return problems

    def check_markdown_forms(self):
        """Every page with a markdown form (pages/negotiation.py) has its file beside it; an old
        address's redirect page is no page."""
        problems = []
        for path in sorted(self.files):
            if path.endswith(".html") and path not in self.redirect_pages:
                address = "/" + path.removesuffix(".html").removesuffix("index")
                if MARKDOWN_PAGE.match(address) and path.removesuffix("html") + "md" not in self.files:
                    problems.append(f"{path}: no markdown form ({path.removesuffix('html')}md)")
        return problems[:10]

    def check_robots(self, text):
        """robots.txt: the `*` group allows everything and carries the Content-Signal; the
        training crawlers are refused when it says ai-train=no; the sitemap is named."""
        groups, agents, in_rules = [], [], False
        for line in text.splitlines():
            field, _, value = line.partition(":")
            if field == "User-agent":
                if in_rules:
                    agents, in_rules = [], False
                if not agents:
                    groups.append((agents, []))
                agents.append(value.strip())
            elif field in ("Allow", "Disallow", "Content-Signal") and groups:
                in_rules = True
                groups[-1][1].append(line)
        rules = {agent: lines for names, lines in groups for agent in names}
        problems = []
        signal = next(
            (CONTENT_SIGNAL.fullmatch(x) for x in rules.get("*", []) if x.startswith("Content")), None
        )
        if not signal or "Allow: /" not in rules.get("*", []):
            problems.append(
                "robots.txt: the * group must say Allow: / and a Content-Signal of search, ai-input, ai-train"
            )
        elif signal[3] == "no":
            problems += [
                f"robots.txt: {agent} is not refused (Disallow: /) though ai-train=no"
                for agent in TRAINING_CRAWLERS
                if rules.get(agent) != ["Disallow: /"]
            ]
        if f"Sitemap: {self.base_url}/sitemap-index.xml" not in text.splitlines():
            problems.append("robots.txt: no Sitemap line naming the sitemap index")
        return problems

    def check_skills(self, read):
        """The agent skills index (pages/skills.py): the v0.2.0 schema's fields, and each skill's
        digest the SHA-256 of the file its url serves."""
        path = skills.INDEX_PATH.lstrip("/")
        if path not in self.files:
            return [f"{path}: missing"]
        try:
            index = json.loads(read(path))
            entries = index["skills"]
        except (ValueError, KeyError, TypeError) as exc:
            return [f"{path}: not a skills index ({exc!r})"]
        problems = (
            [] if index.get("$schema") == skills.SCHEMA else [f"{path}: $schema is not {skills.SCHEMA}"]
        )
        for entry in entries:
            name = str(entry.get("name"))
            if not SKILL_NAME.fullmatch(name) or len(name) > skills.NAME_MAX:
                problems.append(f"{path}: skill name {name!r} is not an Agent Skills name")
            if entry.get("type") != "skill-md" or not 0 < len(str(entry.get("description", ""))) <= 1024:
                problems.append(
                    f"{path}: {name}: expected type skill-md and a description of 1 to 1024 characters"
                )
            url = urlsplit(str(entry.get("url", "")))
            served = served_file(unquote(url.path), self.files) if url.path.startswith("/") else None
            if url.netloc or not served:
                problems.append(f"{path}: {name}: url {entry.get('url')!r} is not a built file")
                continue
            digest = "sha256:" + hashlib.sha256(read(served)).hexdigest()
            if entry.get("digest") != digest:
                problems.append(
                    f"{path}: {name}: digest {entry.get('digest')!r} is not its file's ({digest})"
                )
        return problems

    def check_twins(self, read, paths):
        """Each twin of `paths` is its item's built API document rewritten."""
        problems = []
        for path in paths:
            match = TWIN.fullmatch(path)
            document = json.loads(read(f"api/v1/{path.removesuffix('.md')}.json"))
            if read(path).decode() != TWIN_MARKDOWN[match["kind"]](document):
                problems.append(f"{path}: differs from its item's API document")
        return problems

    def check_llms_full(self, read, size_of, rendered):
        """The parts of llms-full.txt hold every published item's twin, newest first across the
        parts, each once (the twins as built, checked against their documents), each part at
        least one, after its head: the summary in the first, a title line in the others.

        Each twin is found where it should start by the sizes of those before it. Its bytes are
        compared where this build rendered it or the part holding it; a carried twin in a carried
        part was compared when that part was made, and both are as that build left them (the plan
        carries over only unaltered files whose keys did not change), so an edit reads its
        part's twins, not every twin of the site."""
        problem = ["llms-full.txt: its parts are not every published item's twin, newest first, each once"]
        dated = []
        for kind in ("projects", "articles"):
            items = json.loads(read(f"api/v1/{kind}.json"))[kind]
            dated.append([(item["date"], f"{kind}/{item['slug']}.md") for item in items])
        held, compared = [], []  # the parts' twins, and whether to compare each part's bytes
        for path in self.llms_full_parts():
            body = read(path)
            start = body.find(SEPARATOR)
            if start < 0 and len(self.llms_full_parts()) > 1:
                return [f"{path}: holds no item"]
            held.append(body[start:] if start >= 0 else b"")
            compared.append(path in rendered)
        ends = list(accumulate(map(len, held)))
        held = b"".join(held)
        position, part = 0, 0
        for _date, path in newest_first(*dated):
            end = position + len(SEPARATOR) + size_of(path)
            while part < len(ends) - 1 and ends[part] <= position:
                part += 1
            if compared[part] or path in rendered:
                found = held[position:end] == SEPARATOR + read(path)
            else:
                found = held.startswith(SEPARATOR, position) and end <= ends[part]
            if not found:
                return problem
            position = end
        return [] if position == len(held) else problem

    def llms_full_parts(self):
        parts = (LLMS_FULL_PART.fullmatch(path) for path in self.files)
        return ["llms-full.txt", *(m.group() for m in sorted(filter(None, parts), key=lambda m: int(m[1])))]

    def check_catalog(self, body):
        try:
            linkset = json.loads(body)["linkset"]
        except (ValueError, KeyError, TypeError) as exc:
            return [f".well-known/api-catalog: not a linkset ({exc!r})"]
        problems = []
        for context in linkset:
            if context.get("anchor") != f"{self.base_url}/api/v1":
                problems.append(
                    f".well-known/api-catalog: anchor {context.get('anchor')!r} is not the API base"
                )
            for relation in ("service-desc", "service-doc", "item"):
                targets = context.get(relation) or []
                if not targets:
                    problems.append(f".well-known/api-catalog: no {relation} link")
                for target in targets:
                    href = str(target.get("href", ""))
                    if not href.startswith(self.base_url + "/"):
                        problems.append(f".well-known/api-catalog: {relation} {href!r} is not on the site")
                    problems += self.check_link(".well-known/api-catalog", href)
        return problems


def verify(state):
    """Check the new build's files; BuildFailed names every problem found, the host's limits
    the output would break first (limits.py)."""
    limits = host_limit_problems(state)
    openapi = json.loads(state.read("openapi.json"))
    verifier = Verifier(
        state.base_url, state.files, openapi, state.drafts, state.redirect_pages, state.draft_translations
    )
    previous = state.previous
    # Per file, on what this build rendered (the rest passed these checks when it was made).
    rendered = sorted(set(state.rendered) - set(state.host_files))
    chunks = [rendered[i : i + CHUNK] for i in range(0, len(rendered), CHUNK)]
    parallel = len(rendered) >= PARALLEL
    results = map_chunks(check_chunk, chunks, state.workers, (verifier, state.read), parallel=parallel)
    with closing(results):  # a signal meanwhile stops the pool now (workers.map_chunks)
        problems = [problem for chunk in results for problem in chunk]
    # New or renamed drafts, or another address: what was carried over is searched again.
    drafts_changed = plan.drafts_key(state) != previous.get("drafts")
    if state.carried and (drafts_changed or state.base_url != previous.get("base_url")):
        for target in state.carried:
            problems += verifier.draft_leaks(target.path, state.read(target.path))
        for path in sorted(set(state.search_files) - set(state.rendered)):
            problems += verifier.check_search_file(path, state.read(path))
    # Across files: with the same files, drafts and address, only what changed. The search
    # index's files are not among what these checks read: an edit renames some of them.
    before = {path for path in previous.get("files", {}) if not path.startswith(SEARCH_FOLDER)}
    now = {path for path in state.files if not path.startswith(SEARCH_FOLDER)}
    same = not drafts_changed and now == before | set(state.host_files)
    problems += verifier.check_site(state.read, state.written if same else None)
    problems += verifier.check_agent_surfaces(state.read, state.size_of, state.rendered)
    problems += verifier.check_redirect_pages(state.read)
    if limits or problems:
        raise BuildFailed(limits + problems)


# From this many files the per-file checks run on the worker pool; chunks of this many each.
PARALLEL = 200
CHUNK = 200


def check_chunk(checking, paths):
    verifier, read = checking
    problems = []
    for path in paths:
        problems += verifier.check_file(path, read(path))
    return problems + verifier.check_twins(read, [path for path in paths if TWIN.fullmatch(path)])
