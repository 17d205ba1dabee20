"""Images from other hosts: site.yaml's `imageHosts` rules, the import's check of every body's
remote images (markdown and raw HTML) against it, across files and edits, and the authoring
server's security headers, whose policy lets those hosts' images in."""

import pytest

from portfolio.content.importer import import_content
from portfolio.content.models import Article, Site
from portfolio.content.rules import ContentInvalid
from tests.content_builder import IMG_SRC, SITE_YAML, article, write_content

from .helpers import assert_named_error, database_state

A = "articles/remote.md"
HOSTS = "imageHosts: [images.example.org, cdn.example.net]\n"
ITEM = "expected a host name such as images.pexels.com (lowercase letters, digits, '-' and '.'; no scheme"

SITE_CASES = [
    ("not a list", "imageHosts: images.example.org", "expected a list of host names such as [images.pexels"),
    ("not a string", "imageHosts: [images.example.org, 3]", f"item 1: {ITEM}"),
    ("capitals", "imageHosts: [Images.example.org]", f"item 0: {ITEM}"),
    ("a scheme", 'imageHosts: ["https://images.example.org"]', f"item 0: {ITEM}"),
    ("a port", 'imageHosts: ["images.example.org:8080"]', f"item 0: {ITEM}"),
    ("a path", "imageHosts: [images.example.org/photos]", f"item 0: {ITEM}"),
    ("a wildcard", 'imageHosts: ["*.example.org"]', f"item 0: {ITEM}"),
    ("an empty label", "imageHosts: [images..example.org]", f"item 0: {ITEM}"),
    ("a leading hyphen", "imageHosts: [-images.example.org]", f"item 0: {ITEM}"),
    ("a trailing newline", 'imageHosts: ["images.example.org\\n"]', f"item 0: {ITEM}"),
    ("listed twice", "imageHosts: [a.example, b.example, a.example]", "item 2: 'a.example' is listed twice"),
]  # fmt: skip


@pytest.mark.parametrize(("value", "fragment"), [c[1:] for c in SITE_CASES], ids=[c[0] for c in SITE_CASES])
def test_each_rule_of_site_yaml_names_the_item(imported, value, fragment):
    write_content(imported, {"site.yaml": SITE_YAML.replace(HOSTS, value + "\n")})
    assert_named_error(imported, "site.yaml", "imageHosts", fragment)


def test_the_hosts_are_stored_and_optional(imported):
    assert Site.load().image_hosts == ["images.example.org", "cdn.example.net"]
    write_content(imported, {"site.yaml": SITE_YAML.replace(HOSTS, "")})
    import_content(imported, workers=1)
    assert Site.load().image_hosts == []


BODY_CASES = [
    ("markdown", "Text.\n\n![A photo](https://photos.example.com/a.jpg)\n", 8, "photos.example.com"),
    ("a title and a query", 'One.\n\nTwo ![x](https://photos.example.com/a.jpg?w=2 "T")\n', 8,
     "photos.example.com"),
    ("a reference-style image", "![x][p]\n\n[p]: https://photos.example.com/a.jpg\n", 8,
     "photos.example.com"),
    ("an http image", "![x](http://photos.example.com/a.jpg)\n", 6, "photos.example.com"),
    ("a protocol-relative image", "![x](//photos.example.com/a.jpg)\n", 6, "photos.example.com"),
    ("a port", "![x](https://images.example.org:8443/a.jpg)\n", 6, "images.example.org:8443"),
    ("a subdomain of a listed host", "![x](https://a.images.example.org/a.jpg)\n", 6, "a.images.example.org"),
    ("raw HTML", 'Text.\n\n<p>\n<img src="https://photos.example.com/b.png" alt="b">\n</p>\n', 9,
     "photos.example.com"),
    ("raw HTML with an entity", 'Text.\n\n<img src="https://photos.example.com/e.png?a=1&amp;b=2">\n', 8,
     "photos.example.com"),
    ("inline raw HTML", 'Some <img src="https://photos.example.com/c.png"> text.\n', 6, "photos.example.com"),
    ("raw HTML srcset", '<picture>\n<source srcset="https://images.example.org/d.webp 1x, '
     'https://photos.example.com/d.webp 2x">\n<img src="/media/x.png" alt="">\n</picture>\n', 7,
     "photos.example.com"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "line", "host"), [c[1:] for c in BODY_CASES], ids=[c[0] for c in BODY_CASES]
)
def test_an_image_from_an_unlisted_host_names_the_file_line_and_host(imported, body, line, host):
    write_content(imported, {A: article(body=body)})
    assert_named_error(imported, A, f"line {line}", f"shows an image from {host} (")
    with pytest.raises(ContentInvalid) as caught:
        import_content(imported, workers=1)
    assert "which site.yaml's imageHosts does not list: add the host there" in str(caught.value)


def test_listed_hosts_links_and_drafts_pass(imported):
    body = (
        "![x](https://images.example.org/a.jpg)\n\n<img src='https://cdn.example.net/b.png' alt=''>\n\n"
        "[a link elsewhere](https://photos.example.com/page) and <a href='https://photos.example.com/'>one</a>\n"
    )
    draft = article(draft="true", body="![x](https://photos.example.com/a.jpg)\n")
    write_content(imported, {A: article(body=body), "articles/unlisted-draft.md": draft})
    import_content(imported, workers=1)
    html = Article.objects.get(slug="remote").body_html
    assert 'src="https://images.example.org/a.jpg"' in html and "https://cdn.example.net/b.png" in html
    # Published, the draft's image is checked.
    write_content(
        imported, {"articles/unlisted-draft.md": article(body="![x](https://photos.example.com/a.jpg)\n")}
    )
    assert_named_error(
        imported, "articles/unlisted-draft.md", "line 6", "shows an image from photos.example.com"
    )


def test_an_edit_of_site_yaml_that_drops_a_host_in_use_is_caught(imported):
    write_content(imported, {A: article(body="Text.\n\n![x](https://cdn.example.net/a.jpg)\n")})
    import_content(imported, workers=1)
    write_content(imported, {"site.yaml": SITE_YAML.replace(", cdn.example.net", "")})
    before = database_state()
    for only in (None, {"site.yaml"}):  # the authoring server's import names only the file it saw change
        with pytest.raises(ContentInvalid) as caught:
            import_content(imported, workers=1, only=only)
        assert [str(e) for e in caught.value.errors] == [
            f"{A}: line 8: shows an image from cdn.example.net ('https://cdn.example.net/a.jpg'), which "
            "site.yaml's imageHosts does not list: add the host there, or copy the image under media/"
        ]
        assert database_state() == before
    # Dropping the image too, in the same edit, is fine.
    write_content(imported, {A: article(body="Text.\n")})
    import_content(imported, workers=1)
    assert Site.load().image_hosts == ["images.example.org"]


def test_the_authoring_server_sends_the_site_s_security_headers(imported, client, settings):
    settings.DEBUG = True
    for path in ["/", "/articles/unicode-post", "/no/such/page", "/contact"]:
        response = client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert (
            csp.startswith("default-src 'self'; script-src 'self' 'wasm-unsafe-eval';") and IMG_SRC in csp
        ), path
        assert response.headers["X-Content-Type-Options"] == "nosniff", path
        assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin", path
        assert response.headers["Permissions-Policy"].startswith("camera=()"), path
    # The admin keeps Django's own headers (its pages use inline scripts and styles); what is no
    # page (the API, a markdown twin) reads nothing more for headers a browser does not apply.
    for path in ["/admin/login/", "/api/v1/projects.json", "/projects/alpha-one.md"]:
        assert "Content-Security-Policy" not in client.get(path).headers, path
