"""The authoring server's answers to unknown addresses: a renamed item's old address moves to its
new one, anything else gets the site's own 404 page, DEBUG on or off.

With DEBUG off Django already answers with handler404 (pages.views.not_found); with DEBUG on it
would show its technical page listing every URL pattern, which is not what a writer checks. The
API keeps its JSON 404s: its views answer them themselves, and its catch-all route resolves.
"""

from django.conf import settings
from django.http import Http404, HttpResponsePermanentRedirect

from portfolio.content.aliases import moved_to

from .views import not_found


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
