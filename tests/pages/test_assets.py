"""Static files served by the site itself (DEBUG on or off), and the code-highlighting stylesheet."""

from pathlib import Path

from django.conf import settings

from pages.assets import project_static_files
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


def test_export_lists_first_party_static_files_only():
    files = project_static_files()
    assert "pages/site.css" in files and "pages/highlight.css" in files
    assert not [path for path in files if path.startswith(("admin/", "rest_framework/"))]


def test_highlight_css_is_up_to_date():
    committed = Path(settings.BASE_DIR, "pages/static/pages/highlight.css").read_text()
    regenerate = "python -m pages.highlight > pages/static/pages/highlight.css"
    assert committed == stylesheet(), f"out of date: {regenerate}"
    assert ".highlight .k " in committed and "@media (prefers-color-scheme: dark)" in committed
    assert ':root[data-theme="dark"] .highlight .k ' in committed  # the visitor's choice wins
