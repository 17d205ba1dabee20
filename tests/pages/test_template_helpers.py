"""The Jinja2 environment's helpers answer as the Django template tags and filters they stand
for, although they remember their answers."""

import datetime
import re

from django.template import defaultfilters
from django.templatetags.static import static as django_static
from django.test import override_settings
from django.utils import translation

from portfolio.jinja2 import date, static

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
