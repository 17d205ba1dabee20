"""Standalone pages in a build: their files, the hosts' rules, and what an edit renders again."""

import os

from tests.content_builder import write_content
from tests.pages.test_standalone import ABOUT, COLOPHON

from .conftest import tree


def changed_files(out, inodes):
    return sorted(
        path
        for path in tree(out)
        if os.stat(out / path).st_ino != inodes.get(path) and not path.startswith("pagefind/")
    )


def test_a_build_writes_the_pages_and_renders_an_edited_one_again(site, content_dir, tmp_path):
    write_content(content_dir, {"pages/about.md": ABOUT, "pages/colophon.md": COLOPHON})
    site()
    out = tmp_path / "site"
    files = tree(out)
    assert b"<h1>About me</h1>" in files["about.html"]
    assert files["about.md"].startswith(b"# About me\n")
    assert b'<a href="/about">About me</a>' in files["projects.html"]  # the header's link
    assert b"https://portfolio.test/about</loc>" in files["sitemap-pages.xml"]
    assert b"https://portfolio.test/about.md" in files["llms.txt"]
    assert b"/about\n  Link: </about.md>" in files["_headers"]
    redirects = files["_redirects"].decode()
    for rule in ("/about-me /about 301", "/about-me.md /about.md 301", "/who-am-i/ /about 301"):
        assert rule in redirects, rule
    assert "location = /about-me {" in files["_redirects.nginx.conf"].decode()
    assert not any(name.startswith("api/v1/") and b"About me" in data for name, data in files.items())

    # A body edit renders the page and its twin again, and nothing else.
    inodes = {path: os.stat(out / path).st_ino for path in tree(out)}
    write_content(content_dir, {"pages/colophon.md": COLOPHON.replace("Built from", "Made from")})
    result = site()
    assert changed_files(out, inodes) == ["colophon.html", "colophon.md"]
    assert b"Made from markdown." in (out / "colophon.html").read_bytes()
    assert result.rendered == 2

    # A nav page's title is in every page's header: every HTML page renders again.
    inodes = {path: os.stat(out / path).st_ino for path in tree(out)}
    write_content(content_dir, {"pages/about.md": ABOUT.replace('title: "About me"', 'title: "Who"')})
    site()
    changed = changed_files(out, inodes)
    assert {"about.html", "about.md", "index.html", "projects.html", "stack.html", "llms.txt"} <= set(changed)
    assert b'<a href="/about">Who</a>' in (out / "articles.html").read_bytes()

    # Deleted: its files go, and so do its rules.
    (content_dir / "pages/about.md").unlink()
    site()
    files = tree(out)
    assert "about.html" not in files and "about.md" not in files
    assert b"/about-me" not in files["_redirects"] and b"/about\n" not in files["_headers"]
