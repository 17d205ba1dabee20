"""The build's checks, on hand-made files: what they catch and what they must let through."""

import json

import pytest

from portfolio.export.verify import Verifier, llms_txt_problems

BASE = "https://portfolio.test"
FILES = {
    "index.html",
    "articles.html",
    "articles/kept.html",
    "articles/kept.md",
    "api/v1/articles.json",
    "api/v1/articles/kept.json",
}


@pytest.fixture
def verifier(imported, client):
    openapi = json.loads(client.get("/openapi.json").content)
    return Verifier(BASE, FILES, openapi, [("secret-draft", "Secret draft title"), ("ünï", "Ünï “quoted”")])


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ('<a href="/articles/secret-draft">x</a>', "address"),
        (f"<loc>{BASE}/articles/secret-draft</loc>", "address"),
        ('{"apiUrl":"https://portfolio.test/api/v1/articles/secret-draft"}', "address"),
        ("- [x](https://portfolio.test/api/v1/articles/secret-draft.json): y", "address"),
        ('{"slug":"secret-draft"}', "slug"),
        ('{"title":"Secret draft title"}', "title"),
        ('{"title":"Ünï “quoted”"}', "title"),
        ('{"title":"\\u00dcn\\u00ef \\u201cquoted\\u201d"}', "title"),
    ],
)
def test_draft_references_are_caught(verifier, body, kind):
    assert verifier.draft_leaks("f", body.encode()) == [
        f"f: holds the {kind} of unpublished articles/"
        + ("ünï.md" if "n" in body and "ï" in body or "\\u00dc" in body else "secret-draft.md")
    ]


@pytest.mark.parametrize(
    "body",
    [
        "<p>Secret draft title is also a phrase people use.</p>",
        '<a href="/articles/secret-draft-two">a longer slug</a>',
        '{"slug":"secret-draft-two","title":"Secret draft title, the sequel"}',
    ],
)
def test_prose_and_longer_slugs_are_not_leaks(verifier, body):
    assert verifier.draft_leaks("f", body.encode()) == []


def test_a_title_with_quotes_and_backslashes_is_found_whole(imported, client):
    openapi = json.loads(client.get("/openapi.json").content)
    verifier = Verifier(BASE, FILES, openapi, [("q", 'Say "hi" \\ bye')])
    leak = '{"title":' + json.dumps('Say "hi" \\ bye') + "}"
    assert verifier.draft_leaks("f", leak.encode()) == ["f: holds the title of unpublished articles/q.md"]
    longer = '{"title":' + json.dumps('Say "hi" \\ bye, again') + "}"
    assert verifier.draft_leaks("f", longer.encode()) == []


def test_links_must_resolve_to_built_files(verifier):
    assert verifier.check_link("llms.txt", f"{BASE}/articles/kept") == []
    assert verifier.check_link("llms.txt", f"{BASE}/api/v1/articles/kept") == []
    assert verifier.check_link("llms.txt", "https://elsewhere.example/x") == []
    assert verifier.check_link("llms.txt", f"{BASE}/articles/gone") == [
        f"llms.txt: links to {BASE}/articles/gone, which no built file serves"
    ]
    # A query, a fragment and escapes are not part of the file's path.
    for url in (f"{BASE}/articles/kept?ref=feed", f"{BASE}/articles/kept#top", f"{BASE}/articles/%6Bept"):
        assert verifier.check_link("feed.xml", url) == [], url
    assert verifier.check_link("feed.xml", f"{BASE}/articles/gone#top") != []
    assert verifier.check_link("a.html", f"{BASE}/articles/gone") == [
        f"a.html: links to {BASE}/articles/gone, which no built file serves"
    ], "each source is named, whatever was asked before"


def test_the_checks_across_files_look_again_only_at_changed_files(imported, client):
    """An edit with the same files, drafts and address checks only the files whose bytes
    changed: one that did not passed the same checks in the previous build."""
    openapi = json.loads(client.get("/openapi.json").content)
    files = {"api/v1/projects.json", "api/v1/articles.json", "llms.txt", "feed.xml", "sitemap-articles.xml",
             "articles/kept.html", "api/v1/articles/kept.json", "tags/ünï/feed.xml"}  # fmt: skip
    built = {
        "api/v1/projects.json": b'{"projects": []}',
        "api/v1/articles.json": b'{"articles": [{"slug": "kept"}, {"slug": "gone"}]}',
        "llms.txt": f"- [Gone]({BASE}/articles/gone)".encode(),
        "feed.xml": b"<feed></feed>",
        "sitemap-articles.xml": f"<loc>{BASE}/articles/kept</loc><loc>{BASE}/nowhere</loc>".encode(),
        # A tag's feed: its own links are checked, not those in its entries' (escaped) bodies.
        "tags/ünï/feed.xml": f'<link href="{BASE}/articles/gone"/><content type="html">&lt;a '
        f'href="{BASE}/elsewhere"&gt;</content>'.encode(),
    }
    verifier = Verifier(BASE, files, openapi, [])
    every = [
        "api/v1/articles.json: the list and the API detail files disagree on ['gone']",
        "api/v1/articles.json: the list and the page files disagree on ['gone']",
        f"llms.txt: links to {BASE}/articles/gone, which no built file serves",
        f"tags/ünï/feed.xml: links to {BASE}/articles/gone, which no built file serves",
        f"sitemap-articles.xml: links to {BASE}/nowhere, which no built file serves",
    ]
    assert verifier.check_site(built.__getitem__) == every
    assert verifier.check_site(built.__getitem__, changed=set()) == []
    changed = {"llms.txt", "sitemap-articles.xml", "tags/ünï/feed.xml"}
    assert verifier.check_site(built.__getitem__, changed=changed) == every[2:]


def test_every_media_reference_of_a_page_must_resolve(verifier):
    """src, href, og:image's content, srcset candidates and JSON-LD images, relative or
    absolute; /media/ in text or in another attribute is not a reference."""
    verifier.files = FILES | {"media/kept.png", "media/kept-640.webp"}
    body = f"""<img alt="" src="/media/gone-1.png"><a title="x"href="/media/gone-2.pdf">a</a>
    <meta property="og:image" content="{BASE}/media/gone-3.png">
    <source srcset="/media/kept-640.webp 640w, /media/gone-4.webp 1280w">
    <script type="application/ld+json">{{"image": "{BASE}/media/gone-5.png"}}</script>
    <img src="/media/kept.png" data-x="/media/not-a-reference.png"> see /media/prose.png"""
    problems = verifier.check_media("a.html", body.encode())
    named = [problem.split(" links to ")[1].split(",")[0].rsplit("/", 1)[1] for problem in problems]
    assert named == ["gone-1.png", "gone-2.pdf", "gone-3.png", "gone-5.png", "gone-4.webp"]


def test_api_files_must_match_openapi_and_their_counts(verifier):
    body = json.dumps({"count": 2, "articles": [], "extra": 1}).encode()
    problems = verifier.check_file("api/v1/articles.json", body)
    assert any("Additional properties are not allowed ('extra'" in p for p in problems), problems
    assert "api/v1/articles.json: count is 2 but the list holds 0" in problems


@pytest.fixture
def agent_site(imported, client):
    """{path: bytes} of the twins, lists, llms-full.txt, catalog, robots.txt and skills index the
    authoring server answers."""
    paths = ["api/v1/projects.json", "api/v1/articles.json", "llms-full.txt", ".well-known/api-catalog",
             "api/v1.json", "openapi.json", "developers.html", "robots.txt",
             ".well-known/agent-skills/index.json",
             ".well-known/agent-skills/portfolio-test/SKILL.md"]  # fmt: skip
    for kind, slugs in [("projects", ["alpha-one", "beta_two", "delta", "gamma"]),
                        ("articles", ["crlf-post", "first-post", "same-day", "unicode-post"])]:  # fmt: skip
        paths += [f"{kind}/{slug}.md" for slug in slugs] + [f"api/v1/{kind}/{slug}.json" for slug in slugs]
    site = {path: b"".join(client.get("/" + path.removesuffix(".html"))) for path in paths}
    openapi = json.loads(site["openapi.json"])
    return site, lambda files: Verifier(BASE, set(files), openapi, [("secret-draft", "Secret draft title")])


def sizes(site):
    return lambda path: len(site[path])


def test_agent_surfaces_as_built_pass(agent_site):
    site, verifier = agent_site
    assert verifier(site).check_agent_surfaces(site.__getitem__, sizes(site), list(site)) == []


def test_a_twin_must_be_its_json_document_rewritten(agent_site):
    site, verifier = agent_site
    site["articles/first-post.md"] = site["articles/first-post.md"].replace(b"Article body.", b"Edited.")
    assert verifier(site).check_twins(site.__getitem__, ["articles/first-post.md"]) == [
        "articles/first-post.md: differs from its item's API document"
    ]
    assert verifier(site).check_twins(site.__getitem__, ["articles/crlf-post.md"]) == []


def test_every_item_has_one_twin_and_no_draft_has_one(agent_site):
    site, verifier = agent_site
    del site["projects/delta.md"]
    site["articles/secret-draft.md"] = b"# Secret draft title\n"
    assert verifier(site).check_agent_surfaces(site.__getitem__, sizes(site), []) == [
        "articles/secret-draft.md: a markdown twin for draft articles/secret-draft.md",
        "articles/secret-draft.md: no API document for this twin",
        "projects/delta.md: no twin",
    ]


def test_llms_full_must_be_the_summary_and_every_twin_newest_first_once(agent_site):
    site, verifier = agent_site
    check = verifier(site).check_agent_surfaces
    assert check(site.__getitem__, sizes(site), ["llms-full.txt"]) == []
    problem = ["llms-full.txt: its parts are not every published item's twin, newest first, each once"]
    full = site["llms-full.txt"]
    separator = b"\n---\n\n"
    summary, *twins = full.split(separator)
    for broken in (
        summary,  # the summary alone
        full + separator + twins[0],  # one twice
        separator.join([summary, *twins[1:]]),  # one missing
        separator.join([summary, twins[1], twins[0], *twins[2:]]),  # out of order
    ):
        site["llms-full.txt"] = broken
        assert check(site.__getitem__, sizes(site), ["llms-full.txt"]) == problem
    # In parts: the twins of all of them, in order, each part holding one at least.
    site["llms-full.txt"] = separator.join([summary, *twins[:3]])
    site["llms-full-2.txt"] = separator.join([b"# Part 2", *twins[3:]])
    parts = verifier({**site}).check_agent_surfaces
    assert parts(site.__getitem__, sizes(site), ["llms-full-2.txt"]) == []
    site["llms-full-2.txt"] = separator.join([b"# Part 2", *twins[4:]])
    assert parts(site.__getitem__, sizes(site), ["llms-full-2.txt"]) == problem
    site["llms-full-2.txt"] = b"# Part 2, empty"
    site["llms-full.txt"] = full
    assert parts(site.__getitem__, sizes(site), ["llms-full.txt"]) == ["llms-full-2.txt: holds no item"]


def test_an_edit_reads_the_twins_of_the_parts_it_rendered_only(agent_site):
    """A carried part's twins were compared when it was made: an edit finds them by their sizes
    and reads the twins of its rendered parts and the twins it rendered, no others."""
    site, verifier = agent_site
    separator = b"\n---\n\n"
    summary, *twins = site["llms-full.txt"].split(separator)
    site["llms-full.txt"] = separator.join([summary, *twins[:3]])
    site["llms-full-2.txt"] = separator.join([b"# Part 2", *twins[3:]])
    twin_paths = [path for path in site if path.endswith(".md")]
    held = {twin: path for path in twin_paths for twin in twins if site[path] == twin}
    read = []
    check = verifier({**site}).check_agent_surfaces

    def reading(path):
        read.append(path)
        return site[path]

    assert check(reading, sizes(site), ["llms-full-2.txt"]) == []
    assert {path for path in read if path.endswith(".md")} == {held[twin] for twin in twins[3:]}
    # A carried twin of a carried part is not compared, but it must be where its size puts it.
    problem = ["llms-full.txt: its parts are not every published item's twin, newest first, each once"]
    first = held[twins[0]]

    def one_byte_longer(path):
        return len(site[path]) + (path == first)

    assert check(site.__getitem__, one_byte_longer, ["llms-full-2.txt"]) == problem
    # The twin this build rendered is compared wherever it is: the same size, other bytes.
    site[first] = site[first][:-1] + b"!"
    assert check(site.__getitem__, sizes(site), ["llms-full-2.txt", first]) == problem


def test_every_catalog_link_must_resolve_on_the_site(agent_site):
    site, verifier = agent_site
    catalog = json.loads(site[".well-known/api-catalog"])
    catalog["linkset"][0]["item"] = [{"href": f"{BASE}/api/v2.json"}, {"href": "https://elsewhere.example/"}]
    catalog["linkset"][0]["anchor"] = BASE
    site[".well-known/api-catalog"] = json.dumps(catalog).encode()
    check = verifier(site).check_agent_surfaces
    assert check(site.__getitem__, sizes(site), [".well-known/api-catalog"]) == [
        f".well-known/api-catalog: anchor '{BASE}' is not the API base",
        f".well-known/api-catalog: links to {BASE}/api/v2.json, which no built file serves",
        ".well-known/api-catalog: item 'https://elsewhere.example/' is not on the site",
    ]


def test_a_draft_is_found_wherever_it_sits(verifier):
    """At the start or the end of a file, among multibyte characters, right after another
    needle's start: the search matches from each needle's first bytes, then looks one character on."""
    filler = "é" * 40
    for before, after in [
        ("", ""),
        (filler, ""),
        ("", filler),
        (filler, "é" + filler),
        ("/articles/", ".json"),
    ]:
        body = (before + "/articles/secret-draft" + after).encode()
        leak = "f: holds the address of unpublished articles/secret-draft.md"
        assert verifier.draft_leaks("f", body) == [leak]
        longer = body.replace(b"secret-draft", b"secret-draft-two")
        assert verifier.draft_leaks("f", longer) == [], (before, after)
    assert verifier.draft_leaks("f", '"title":"Ünï “quoted”"'.encode()) == [
        "f: holds the title of unpublished articles/ünï.md"
    ]
    assert verifier.draft_leaks("f", b'"slug":"secret-draft') == []  # not the whole field


@pytest.mark.parametrize(
    ("path", "body", "problem"),
    [
        ("feed.xml", "<feed><title>a\x01b</title></feed>", "feed.xml: not well-formed XML: not well-formed "
         "(invalid token) at line 1, column 15"),
        ("sitemap-articles.xml", "<urlset><url></urlset>", "sitemap-articles.xml: not well-formed XML: "
         "mismatched tag at line 1, column 16"),
        ("openapi.json", '{"a": }', "openapi.json: not JSON (Expecting value: line 1 column 7 (char 6))"),
    ],
)  # fmt: skip
def test_malformed_xml_and_json_fail_the_build(verifier, path, body, problem):
    assert verifier.check_file(path, body.encode()) == [problem]


GOOD_LLMS = "# Site\n\n> Summary\n\nFree text.\n\n## Pages\n\n- [Home](https://x.test/): The home page.\n"


def test_llms_txt_structure(verifier):
    assert verifier.check_file("llms.txt", GOOD_LLMS.encode()) == []
    broken = GOOD_LLMS + "- [A [nested] name](https://x.test/a): x\n# Another title\nstray line\n"
    assert llms_txt_problems("llms.txt", broken.encode()) == [
        "llms.txt: line 10: expected a '- [name](url): notes' item; "
        "got '- [A [nested] name](https://x.test/a): x'",
        "llms.txt: line 11: a second '# ' title",
        "llms.txt: line 12: expected a '- [name](url): notes' item; got 'stray line'",
    ]
    assert llms_txt_problems("llms.txt", b"Site\n> no title\n") == [
        "llms.txt: line 1: expected the title as '# Title'",
        "llms.txt: line 3: expected the summary as '> Summary' after a blank line",
    ]
