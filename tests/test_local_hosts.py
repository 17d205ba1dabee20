"""The wrapper both local servers put in front of their application (portfolio/local_hosts.py),
on the server they run (Django's WSGIServer) and a real socket: an error answers 500 at once,
where wsgiref had sent a status line and then left the client waiting for the rest."""

import threading
from contextlib import contextmanager

import pytest
from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer

from portfolio.local_hosts import AllowedHostsOnly
from tests.server import raw_get


def raises(environ, start_response):
    raise RuntimeError("a bug in a handler")


def unencodable_location(environ, start_response):
    start_response("308 Permanent Redirect", [("Location", "/tags/日本語")])  # no Latin-1 form
    return [b""]


def raises_after_starting(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    raise RuntimeError("a bug after the headers were set")


def answers(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


@contextmanager
def serving(application):
    server = WSGIServer(("127.0.0.1", 0), QuietHandler)
    server.set_app(AllowedHostsOnly(application))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("application", [raises, unencodable_location, raises_after_starting])
def test_a_handler_error_answers_500_instead_of_hanging(settings, application):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    with serving(application) as base:
        status, headers, body = raw_get(base, b"/tags/%E6%97%A5%E6%9C%AC%E8%AA%9E", timeout=5)
        assert (status, headers["content-type"]) == (500, "text/html; charset=utf-8")
        assert b"Server Error (500)" in body


def test_a_good_answer_and_a_foreign_host_are_as_before(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    with serving(answers) as base:
        assert raw_get(base, "/tags/日本語".encode())[::2] == (200, b"ok")
        assert raw_get(base, b"/", headers={"Host": "rebound.example"})[0] == 400
