"""The local servers (the authoring server, the preview) answer only their own host names.

A page on another site can point a name it controls at 127.0.0.1 (DNS rebinding) and then read
whatever a local server answers to that name. Django checks `Host` only when something asks for it,
after a cached list or a static file may already have answered; this checks it first, for every
request, with Django's own rule (ALLOWED_HOSTS).
"""

import logging

from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIRequest

logger = logging.getLogger("django.security.DisallowedHost")

BAD_REQUEST = (
    b'<!doctype html>\n<html lang="en">\n<title>Bad Request (400)</title>\n<h1>Bad Request (400)</h1>\n'
)


class AllowedHostsOnly:
    """WSGI: 400 for a request whose Host is not in ALLOWED_HOSTS, before `application` sees it."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        try:
            # A copy: WSGIRequest replaces the environ's PATH_INFO with its decoded text, which the
            # request Django then makes would decode again (`/tags/ünï` would become /tags/%FCn%EF).
            WSGIRequest(dict(environ)).get_host()
        except DisallowedHost as error:
            logger.warning("%s", error)
            start_response("400 Bad Request", [("Content-Type", "text/html; charset=utf-8"),
                                               ("Content-Length", str(len(BAD_REQUEST)))])  # fmt: skip
            return [BAD_REQUEST]
        return self.application(environ, start_response)
