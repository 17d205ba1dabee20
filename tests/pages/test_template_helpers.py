"""The Jinja2 environment's helpers answer as the Django template tags and filters they stand
for, although they remember their answers."""

import datetime
import re

import jinja2
from django.template import defaultfilters
from django.templatetags.static import static as django_static
from django.test import override_settings
from django.utils import translation

from portfolio.jinja2 import date, environment, static

DAY = datetime.date(2026, 5, 5)


def test_date_is_djangos_date_filter():
    for format_string in ("j F Y", "Y-m-d", "M Y"):
        assert date(DAY, format_string) == defaultfilters.date(DAY, format_string)
    assert date(DAY, "j F Y") == "5 May 2026"
    with override_settings(USE_I18N=True), translation.override("de"):
        assert date(DAY, "j F Y") == defaultfilters.date(DAY, "j F Y")
    moment = datetime.datetime(2026, 5, 5, 23, 30, tzinfo=datetime.UTC)
    assert date(moment, "Y-m-d H:i") == defaultfilters.date(moment, "Y-m-d H:i")


def test_static_names_are_hashed_and_follow_static_url():
    hashed = static("pages/site.css")
    assert re.fullmatch(r"/static/pages/site\.[0-9a-f]{12}\.css", hashed)
    with override_settings(STATIC_URL="https://cdn.example/s/"):
        assert static("pages/site.css") == "https://cdn.example/s" + hashed.removeprefix("/static")
    with override_settings(DEBUG=True):  # the authoring server: plain names, served from source
        assert static("pages/site.css") == django_static("pages/site.css") == "/static/pages/site.css"
    assert static("pages/site.css") == hashed


def test_compiled_templates_are_kept_and_follow_their_source(tmp_path, settings):
    """portfolio.jinja2.bytecode_cache: a fresh environment (a new process) loads what an earlier
    one compiled, and an edited template is compiled again, never served stale."""
    settings.JINJA2_CACHE_DIR = tmp_path / "compiled"
    (tmp_path / "templates").mkdir()
    page = tmp_path / "templates" / "page.html"
    page.write_text("<p>{{ word }} one</p>\n")
    loader = jinja2.FileSystemLoader(tmp_path / "templates")
    assert environment(loader=loader).get_template("page.html").render(word="<b>") == "<p>&lt;b&gt; one</p>\n"
    [kept] = settings.JINJA2_CACHE_DIR.rglob("*.cache")
    written = kept.stat().st_ino
    assert environment(loader=loader).get_template("page.html").render(word="x") == "<p>x one</p>\n"
    assert kept.stat().st_ino == written, "loaded, not compiled and written again"
    page.write_text("<p>{{ word }} two</p>\n")
    assert environment(loader=loader).get_template("page.html").render(word="x") == "<p>x two</p>\n"
    assert kept.stat().st_ino != written, "compiled again, in place"
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": []}, *settings.TEMPLATES[1:]]
    environment(loader=loader).get_template("page.html")
    assert len(list(settings.JINJA2_CACHE_DIR.rglob("*.cache"))) == 2, "other options: another folder"


def test_templates_render_where_nothing_can_be_kept(tmp_path, settings):
    (tmp_path / "file").write_text("")
    settings.JINJA2_CACHE_DIR = tmp_path / "file" / "compiled"  # under a file: cannot be made
    env = environment(loader=jinja2.DictLoader({"page.html": "<p>{{ word }}</p>"}))
    assert env.bytecode_cache is None
    assert env.get_template("page.html").render(word="ok") == "<p>ok</p>"
