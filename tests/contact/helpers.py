"""Shared by the contact tests."""

SITE_ORIGIN = "https://portfolio.test"  # the origin of tests/content_builder.py's SITE_URL
VALID = {"name": "Ada Lovelace", "email": "ada@example.com", "message": "Hello there.\nSecond line."}


def numbered(n):
    """VALID with a message of its own: the same message twice is stored once (a double click)."""
    return {**VALID, "message": f"Message number {n}."}


BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def assert_error(response, status, code):
    """The one JSON error shape."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"ok", "error"} and body["ok"] is False
    assert set(body["error"]) == {"status", "code", "message", "fields"}
    assert body["error"]["status"] == status
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["fields"], dict)
    return body["error"]
