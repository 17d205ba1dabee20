"""The /contact and /contact/thanks pages, their registration with the static export, and how
the frozen form reaches the contact service."""

import re
from html.parser import HTMLParser

import pytest
from django.urls import resolve, reverse
from django_distill import get_distilled_urls
from django_distill.renderer import write_single_pattern

from contact import hosting


class FormParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms, self.inputs, self.scripts = [], {}, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append(attrs)
        elif tag in ("input", "textarea"):
            self.inputs[attrs["name"]] = attrs
        elif tag == "script":
            if attrs.get("src"):  # not the JSON-LD data block
                self.scripts.append(attrs["src"])


def parse(response):
    parser = FormParser()
    parser.feed(response.content.decode())
    return parser


def test_routes_round_trip():
    for name, path in [("form", "/contact"), ("thanks", "/contact/thanks"), ("api", "/api/contact")]:
        assert reverse(f"contact:{name}") == path
        assert resolve(path).view_name == f"contact:{name}"


def test_the_pages_are_frozen_and_the_post_route_is_not():
    distilled = {
        (url.name, url.distill_file) for url in get_distilled_urls() if url.distill_namespace == "contact"
    }
    assert distilled == {("form", "contact.html"), ("thanks", "contact/thanks.html")}


@pytest.mark.parametrize(
    "name, filename, text",
    [
        ("contact:form", "contact.html", "<form"),
        ("contact:thanks", "contact/thanks.html", "Your message was sent"),
    ],
)
def test_the_export_writes_the_pages(imported, tmp_path, name, filename, text):
    write_single_pattern(tmp_path, name)
    assert text in (tmp_path / filename).read_text()


def test_contact_page_form_works_without_javascript(client, imported):
    response = client.get("/contact")
    assert response.status_code == 200
    page = parse(response)
    search, form = page.forms  # the header's search form, then the page's own
    assert search["action"] == "/search" and search["role"] == "search"
    assert form["method"] == "post" and form["action"] == "/api/contact"
    assert {"name", "email", "message", "website"} <= set(page.inputs)
    assert page.inputs["email"]["type"] == "email"
    assert page.inputs["website"]["tabindex"] == "-1"  # the honeypot, out of the tab order
    assert [src for src in page.scripts if re.fullmatch(r"/static/contact/contact\.[0-9a-f]{12}\.js", src)]
    html = response.content.decode()
    assert 'aria-live="polite"' in html
    assert "<title>Contact · Test Portfolio</title>" in html


def test_thanks_page(client, imported):
    response = client.get("/contact/thanks")
    assert response.status_code == 200
    assert "Your message was sent" in response.content.decode()


def test_the_form_script_is_found_by_the_staticfiles_finders():
    from django.contrib.staticfiles import finders

    assert finders.find("contact/contact.js")


@pytest.mark.parametrize(
    "service_url, cross_origin, action, rules",
    [
        ("", False, "/api/contact", []),
        ("", True, "/api/contact", []),
        (
            "https://contact.example.net",
            False,
            "/api/contact",
            [
                "/api/contact  https://contact.example.net/api/contact  200!",
                "/api/contact/challenge  https://contact.example.net/api/contact/challenge  200!",
            ],
        ),
        ("https://contact.example.net", True, "https://contact.example.net/api/contact", []),
    ],
)
def test_how_the_frozen_form_reaches_the_service(
    client, imported, settings, service_url, cross_origin, action, rules
):
    settings.CONTACT_SERVICE_URL = service_url
    settings.CONTACT_CROSS_ORIGIN = cross_origin
    assert hosting.form_action() == action
    assert hosting.redirect_rules() == rules
    assert parse(client.get("/contact")).forms[-1]["action"] == action  # after the header's search
    # The challenge is fetched from beside the post.
    challenge_url = action.removesuffix("/api/contact") + "/api/contact/challenge"
    assert hosting.challenge_url() == challenge_url
    assert f'data-challenge="{challenge_url}"' in client.get("/contact").content.decode()
