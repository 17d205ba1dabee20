from functools import cache

from django.conf import settings
from django.urls import reverse

from portfolio.content.models import Page, Site

LINKS = {
    "home": "pages:home",
    "projects": "pages:projects",
    "articles": "pages:articles",
    "tags": "pages:tags",
    "stack": "pages:stack",
    "developers": "pages:developers",
    "search": "pages:search",
    "contact": "contact:form",
    "feed": "pages:feed",
    "llms_txt": "pages:llms-txt",
    "sitemap": "pages:sitemap-index",
    "api": "api:index-json",  # the .json form: it works on every host and local server
    "favicon": "pages:favicon",
    "manifest": "pages:manifest",
}


@cache
def _links():
    return {key: reverse(name, urlconf=settings.SITE_URLCONF) for key, name in LINKS.items()}


def links(request):
    """`links`: the addresses every page's header and footer show, reversed once per process
    rather than a dozen times per page (a measurable share of a 10,000-page build). They are
    paths, so they work on whichever server serves the page (authoring, preview, production);
    only on the contact service, another host with another urlconf, do they point at the site."""
    if settings.ROOT_URLCONF == settings.SITE_URLCONF:
        return {"links": _links()}
    base_url = Site.load().base_url
    return {"links": {key: base_url + path for key, path in _links().items()}}


@Site.kept_while_pinned  # a build's every page shows them: read once while it renders
def nav_pages():
    """(title, address) of the published standalone pages with `nav: true`, in their `order`."""
    return [(page.title, page.get_absolute_url()) for page in Page.objects.in_nav().only("slug", "title")]


def navigation(request):
    """`nav_pages`: the standalone pages the header links to, after its own links. The contact
    service's pages have none (its database holds no content; it has its own context processor)."""
    return {"nav_pages": nav_pages()}
