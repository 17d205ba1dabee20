"""The authoring server's answers to unknown addresses: a renamed item's old address moves to its
new one, anything else gets the site's own 404 page, DEBUG on or off.

With DEBUG off Django already answers with handler404 (pages.views.not_found); with DEBUG on it
would show its technical page listing every URL pattern, which is not what a writer checks. The
API keeps its JSON 404s: its views answer them themselves, and its catch-all route resolves.
"""

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.db import DatabaseError
from django.http import Http404, HttpResponsePermanentRedirect
from django.utils import translation

from portfolio.content import languages
from portfolio.content.aliases import moved_to
from portfolio.content.models import Site

from .security import security_headers
from .views import not_found

# What is not the site's: Django's admin and the live reload's events keep Django's own headers.
NOT_SITE = ("/admin/", "/__reload__/")


class AliasRedirectMiddleware:
    """An old address of a renamed item (its `aliases`) answers 301 to the new one, as the hosts'
    rules do in a build (portfolio/content/aliases.py). Only a 404 is looked up: no other request
    pays for it, and the build's 404 pages are not item addresses."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 404 and request.method in ("GET", "HEAD"):
            new = moved_to(request.path_info)
            if new:
                query = request.META.get("QUERY_STRING", "")
                return HttpResponsePermanentRedirect(new + (f"?{query}" if query else ""))
        return response


class SiteNotFoundMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if settings.DEBUG and response.status_code == 404 and request.resolver_match is None:
            return not_found(request)  # no route matched: Django's technical 404 page
        return response

    def process_exception(self, request, exception):
        if settings.DEBUG and isinstance(exception, Http404):  # a view's 404 (unknown slug)
            return not_found(request, exception)
        return None


class SecurityHeadersMiddleware:
    """The site's pages answer with the headers the hosts send (pages/security.py), so a page
    that breaks under the Content-Security-Policy (an image from a host not in site.yaml's
    imageHosts, an inline style) breaks while it is written too. Only on pages (HTML answers to
    GET and HEAD: the policy guards what a browser renders, and the API's answers read no more
    than their own rows; the preview hands Django only the contact form's POST), not on the
    admin, nor on an error page with status 500 (the content's problems page and Django's
    technical page carry their own styles), nor before any site is imported, nor in the contact
    service (its own pages, no imported site). The page's own read of the site identity serves
    the policy too (Site.read_once): no query is added."""

    def __init__(self, get_response):
        if settings.CONTACT_SERVICE:
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request):
        with Site.read_once():
            response = self.get_response(request)
            return self.secured(request, response)

    def secured(self, request, response):
        if (
            request.method not in ("GET", "HEAD")
            or not response.get("Content-Type", "").startswith("text/html")
            or response.status_code >= 500
            or request.path_info.startswith(NOT_SITE)
        ):
            return response
        try:
            headers = security_headers(request.path_info)
        except Site.DoesNotExist:
            return response
        for header in headers:
            name, value = header.split(": ", 1)
            response.headers.setdefault(name, value)
        return response


class LanguageMiddleware:
    """Each page in its language: the one its address starts with, /<lang>/ (every route of
    pages/languages.py, and an address under it no route answers, whose 404 page is that
    language's), the site's default language (site.yaml's first) everywhere else. Activated for
    the view and its template (Django's translation, `request.page_language` which
    pages.context_processors reads, the addresses' prefix), and put back after the response, as
    translation.override() does. A site.yaml without `languages` activates nothing: its pages
    speak whatever language is active (none: LANGUAGE_CODE's)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with translation.override(translation.get_language()):
            token = languages.page_prefix.set("")
            try:
                if languages.declared():
                    code = request.path_info.split("/", 2)[1]
                    language = languages.other_language(code) or languages.default_language()
                    request.LANGUAGE_CODE, request.page_language = language.code, language
                    translation.activate(language.code)
                    languages.page_prefix.set(language.prefix)
            except DatabaseError:  # no content imported (the contact service, the admin before it)
                pass
            try:
                return self.get_response(request)
            finally:
                languages.page_prefix.reset(token)
