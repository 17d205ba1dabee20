"""Static files served by the site itself (DEBUG on or off), and the code-highlighting stylesheet."""

import hashlib
import json
import re
import struct
from pathlib import Path

from django.conf import settings

from pages.assets import hashed_storage, project_static_files
from pages.highlight import stylesheet

from .conftest import body_of


def test_site_css_is_served_with_debug_off(imported, client):
    assert settings.DEBUG is False
    response = client.get("/static/pages/site.css")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert ':root[data-theme="dark"] { color-scheme: dark; }' in body_of(response)


def test_unknown_static_file_is_not_found(imported, client):
    assert client.get("/static/pages/missing.css").status_code == 404
    assert client.get("/static/../manage.py").status_code in (400, 404)  # refused, never served


def test_export_lists_first_party_static_files_only_under_hashed_names():
    files = project_static_files()
    assert {re.sub(r"\.[0-9a-f]{12}\.", ".", path) for path in files} >= {
        "pages/site.css", "pages/highlight.css", "pages/favicon.svg", "contact/contact.js"
    }  # fmt: skip
    assert "pages/site.css" not in files
    assert not [path for path in files if path.startswith(("admin/", "rest_framework/"))]


def test_hashed_name_serves_the_file_and_changes_with_its_bytes(imported, client):
    source = Path(settings.BASE_DIR, "pages/static/pages/site.css").read_bytes()
    hashed = hashed_storage().hashed_files["pages/site.css"]
    assert hashlib.md5(source).hexdigest()[:12] in hashed  # Django's naming: a hash of the bytes
    response = client.get("/static/" + hashed)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/css")
    assert response.content == source
    page = client.get("/").content.decode()
    assert f'href="/static/{hashed}"' in page and 'href="/static/pages/site.css"' not in page


def test_highlight_css_is_up_to_date():
    committed = Path(settings.BASE_DIR, "pages/static/pages/highlight.css").read_text()
    regenerate = "python -m pages.highlight > pages/static/pages/highlight.css"
    assert committed == stylesheet(), f"out of date: {regenerate}"
    assert ".highlight .k " in committed and "@media (prefers-color-scheme: dark)" in committed
    assert ':root[data-theme="dark"] .highlight .k ' in committed  # the visitor's choice wins


def test_icons_and_manifest(get):
    response, body = get("/favicon.ico")
    assert response["Content-Type"] == "image/vnd.microsoft.icon"
    assert body.encode("latin-1").startswith(b"\x00\x00\x01\x00")  # an ICO header
    _, page = get("/")
    for tag in [
        r'<link rel="icon" href="/favicon.ico" sizes="48x48">',
        r'<link rel="icon" href="/static/pages/favicon\.[0-9a-f]{12}\.svg" type="image/svg\+xml">',
        r'<link rel="apple-touch-icon" href="/static/pages/apple-touch-icon\.[0-9a-f]{12}\.png">',
        r'<link rel="manifest" href="/site.webmanifest">',
    ]:
        assert re.search(tag, page), tag
    response, apple = get(re.search(r'rel="apple-touch-icon" href="([^"]+)"', page)[1])
    assert png_size(apple) == (180, 180)

    response, body = get("/site.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["name"] == "Test Portfolio" and manifest["start_url"] == "/"
    assert manifest["theme_color"] == manifest["background_color"] == "#fcfcfd"
    sizes = {}
    for icon in manifest["icons"]:
        response, data = get(icon["src"])
        assert response["Content-Type"] == icon["type"], icon
        if icon["type"] == "image/png":
            sizes[icon["sizes"]] = png_size(data)
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}


def png_size(data):
    """(width, height) from a PNG's header, read as body_of gives it (latin-1 text)."""
    raw = data.encode("latin-1")
    assert raw.startswith(b"\x89PNG\r\n\x1a\n")
    return struct.unpack(">II", raw[16:24])


def test_theme_script_runs_before_the_stylesheets(get):
    for path in ["/", "/articles/first-post", "/contact", "/contact/thanks"]:
        _, page = get(path)
        head = page.split("</head>")[0]
        # Synchronous: no defer, no async.
        script = re.search(r'<script src="/static/pages/theme\.[0-9a-f]{12}\.js"></script>', head)
        assert script and script.start() < head.index('rel="stylesheet"'), path
        assert "<script>" not in page and " style=" not in page, path  # nothing a strict CSP refuses
