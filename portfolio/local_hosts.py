"""The local servers (the authoring server, the preview): what both put in front of their WSGI
application.

- They answer only their own host names. A page on another site can point a name it controls at
  127.0.0.1 (DNS rebinding) and then read whatever a local server answers to that name. Django
  checks `Host` only when something asks for it, after a cached list or a static file may already
  have answered; this checks it first, for every request, with Django's own rule (ALLOWED_HOSTS).
- Every answer finishes. wsgiref sends the status line before it encodes the headers: a header
  it cannot encode (a Location naming /tags/日本語 unencoded), or an error after that, left the
  client waiting for the rest forever. Headers are checked when the application sets them, and
  an error before the answer started is a 500.
"""

import logging
import sys

from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.exceptions import DisallowedHost, SuspiciousFileOperation
from django.core.handlers.exception import response_for_exception
from django.core.handlers.wsgi import WSGIRequest
from django.http import Http404

logger = logging.getLogger("django.security.DisallowedHost")
server_logger = logging.getLogger("django.server")


def _page(title):
    return f'<!doctype html>\n<html lang="en">\n<title>{title}</title>\n<h1>{title}</h1>\n'.encode()


BAD_REQUEST = _page("Bad Request (400)")
SERVER_ERROR = _page("Server Error (500)")


def _html(body):
    return [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))]


def _latin1_headers(status, headers):
    """Raise before anything is sent if a header is not what HTTP carries (Latin-1 text)."""
    status.encode("latin-1")
    for name, value in headers:
        name.encode("latin-1")
        value.encode("latin-1")


class AllowedHostsOnly:
    """WSGI: 400 for a request whose Host is not in ALLOWED_HOSTS, before `application` sees it;
    500 for an error raised before the answer started, instead of an answer that never ends."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        try:
            # A copy: WSGIRequest writes the decoded path into the environ it is given; the request
            # Django then makes would decode it again (`/tags/ünï` would become /tags/%FCn%EF), and
            # the servers' own handlers (static files) fail to encode a non-ASCII one.
            WSGIRequest(environ.copy()).get_host()
        except DisallowedHost as error:
            logger.warning("%s", error)
            start_response("400 Bad Request", _html(BAD_REQUEST))
            return [BAD_REQUEST]

        def checked_start_response(status, headers, exc_info=None):
            _latin1_headers(status, headers)
            return start_response(status, headers, exc_info)

        try:
            return self.application(environ, checked_start_response)
        except Exception:
            server_logger.exception("Error answering %s", environ.get("PATH_INFO", ""))
            # With exc_info, start_response replaces headers not yet sent (and re-raises if they
            # were: the server then closes the connection).
            start_response("500 Internal Server Error", _html(SERVER_ERROR), sys.exc_info())
            return [SERVER_ERROR]


class ConfinedStaticFilesHandler(StaticFilesHandler):
    """The authoring server's /static/ handler (runserver with DEBUG on), answering 404 to a path
    that leads out of the static folders: Django's lets the finders' SuspiciousFileOperation out
    of the WSGI application, a 500 (`/static/..%2f..%2fportfolio/settings.py`)."""

    def get_response(self, request):
        try:
            return super().get_response(request)
        except SuspiciousFileOperation:
            return response_for_exception(request, Http404(request.path))
