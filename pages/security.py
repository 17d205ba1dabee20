"""The security headers of every page the site answers, in one place: the static hosts' `_headers`
and nginx's include (portfolio/export/hosts.py) write them, and the authoring server sends them
(pages.middleware.SecurityHeadersMiddleware), so a page that breaks under the policy breaks
while it is written too."""

import json
import re
from urllib.parse import urlsplit

from django.conf import settings

from portfolio.content.models import Site

# An article's page, or its translation's: the only pages that show comments
# (templates/includes/comments.html).
ARTICLE_PAGE = re.compile(r"^(/[a-z]{2,3}(-[a-z0-9]{2,8}){0,2})?/articles/[^/]+$")


def origin(url):
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def analytics_script(site):
    """(its address, its data attributes [(name, value)], the origins it loads from, the
    origins it sends to) of site.yaml's analytics provider, as each documents its snippet; or
    None without one. docs/hosting.md says what each sends."""
    if not site.analytics:
        return None
    [(provider, given)] = site.analytics.items()
    if provider == "plausible":
        src = given.get("src", "https://plausible.io/js/script.js")
        return src, [("data-domain", given["domain"])], [origin(src)], [origin(src)]
    if provider == "umami":
        src = given["src"]
        return src, [("data-website-id", given["websiteId"])], [origin(src)], [origin(src)]
    if provider == "goatcounter":
        endpoint = f"https://{given['code']}.goatcounter.com/count"
        return (
            "https://gc.zgo.at/count.js",
            [("data-goatcounter", endpoint)],
            ["https://gc.zgo.at"],
            [origin(endpoint)],
        )
    token = json.dumps({"token": given["token"]})
    return (
        "https://static.cloudflareinsights.com/beacon.min.js",
        [("data-cf-beacon", token)],
        ["https://static.cloudflareinsights.com"],
        ["https://cloudflareinsights.com"],
    )


def giscus_origin():
    """Where giscus is served from: https://giscus.app (GISCUS_ORIGIN, for a self-hosted giscus or
    the tests' stand-in)."""
    return settings.GISCUS_ORIGIN


@Site.build_cached  # a build asks for it for its host files and for each page it renders
def content_security_policy():
    """The policy of every page (article_policy() for the articles' pages with comments on)."""
    return policy(Site.load())


@Site.build_cached
def article_policy():
    """The policy of an article's page when site.yaml asks for comments, or None: the site's,
    with giscus' origin in script-src (its client.js), frame-src (the thread) and style-src (the
    stylesheet client.js adds), and nowhere else."""
    site = Site.load()
    return policy(site, comments=True) if site.comments else None


def policy(site, comments=False):
    """What the pages need and nothing else: their own styles, scripts (files, never inline),
    images and fonts, and the images of site.yaml's `imageHosts` (bodies may show remote
    images; the import refuses one from another host); no framing; the form posts (and
    contact.js fetches) to the site, or to the contact service when it is on another origin
    (CONTACT_SERVICE_URL).

    'wasm-unsafe-eval': the search (/search, Pagefind) compiles its WebAssembly, in a worker
    started from /pagefind/ and, failing that, in the page. It lets the site's own scripts compile
    WebAssembly and nothing more: no eval() of strings, no inline script. Site-wide because one
    page cannot be given a wider policy on every host: Netlify adds a `/search` rule's policy to
    the `/*` rule's (two policies, both enforced, so the narrower wins) and cannot remove one, and
    the worker's own response needs it as well."""
    site = Site.load()
    contact = ""
    service = urlsplit(settings.CONTACT_SERVICE_URL)
    if service.scheme and service.netloc:
        own = urlsplit(site.base_url)
        if (service.scheme, service.netloc) != (own.scheme, own.netloc):
            contact = f" {service.scheme}://{service.netloc}"
    images = "".join(f" {host}" for host in site.image_hosts)
    # site.yaml's analytics: its script's origin and where it sends, on every page.
    scripts = connects = giscus = frames = ""
    found = analytics_script(site)
    if found:
        scripts = "".join(f" {o}" for o in found[2])
        connects = "".join(f" {o}" for o in found[3] if f" {o}" != contact)
    if comments:
        giscus = f" {giscus_origin()}"
        frames = f"frame-src 'self'{giscus}; "
    return (
        f"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{scripts}{giscus}; "
        f"style-src 'self'{giscus}; img-src 'self'{images}; font-src 'self'; manifest-src 'self'; "
        f"connect-src 'self'{contact}{connects}; "
        f"{frames}form-action 'self'{contact}; "
        "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    )


def security_headers(path=None):
    """["Name: value"] of the headers every response of the site carries (at `path`, when
    known: an article's page with comments on gets article_policy())."""
    csp = content_security_policy()
    if path is not None and ARTICLE_PAGE.match(path):
        csp = article_policy() or csp
    return [
        f"Content-Security-Policy: {csp}",
        "X-Content-Type-Options: nosniff",
        "Referrer-Policy: strict-origin-when-cross-origin",
        "Permissions-Policy: camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    ]
