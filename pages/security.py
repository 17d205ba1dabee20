"""The security headers of every page the site answers, in one place: the static hosts' `_headers`
and nginx's include (portfolio/export/hosts.py) write them, and the authoring server sends them
(pages.middleware.SecurityHeadersMiddleware), so a page that breaks under the policy breaks
while it is written too."""

from urllib.parse import urlsplit

from django.conf import settings

from portfolio.content.models import Site


@Site.build_cached  # a build asks for it for its host files and for each page it renders
def content_security_policy():
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
    return (
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
        f"img-src 'self'{images}; font-src 'self'; manifest-src 'self'; connect-src 'self'{contact}; "
        f"form-action 'self'{contact}; "
        "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    )


def security_headers():
    """["Name: value"] of the headers every response of the site carries."""
    return [
        f"Content-Security-Policy: {content_security_policy()}",
        "X-Content-Type-Options: nosniff",
        "Referrer-Policy: strict-origin-when-cross-origin",
        "Permissions-Policy: camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    ]
