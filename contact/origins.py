"""The origin allowlist that stands in for credentials (and for a CSRF token) on the contact route.

A browser always says which page a cross-site POST comes from: the `Origin` header (sent with every
POST by current browsers), else the `Referer`. Checking it against the site's own origins stops
other sites from making their visitors' browsers post to us. It does not stop a script that forges
the header; the rate limit is what bounds those.
"""

from urllib.parse import urlsplit

from django.conf import settings

from portfolio.content.models import Site

# Where `make serve` runs the authoring server; allowed only when DEBUG is on.
LOCAL_AUTHORING_ORIGINS = ["http://127.0.0.1:8000", "http://localhost:8000"]
DEFAULT_PORTS = {"http": 80, "https": 443}


def normalize_origin(value, allow_path=False):
    """`scheme://host[:port]` with scheme and host lowercased and the default port dropped, or None
    when `value` is not an http(s) origin. A trailing slash is tolerated; any other path, a query,
    a fragment or user info is not, unless `allow_path` (a Referer, or a configured site URL)."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except (AttributeError, ValueError):
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    if scheme not in DEFAULT_PORTS or not host or parts.username is not None or parts.password is not None:
        return None
    if not allow_path and (parts.path not in ("", "/") or parts.query or parts.fragment):
        return None
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    if port is None or port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def allowed_origins():
    """CONTACT_ALLOWED_ORIGINS, or by default the site's own origin (SITE_URL, else site.yaml's
    url) plus the local authoring origins when DEBUG is on."""
    configured = settings.CONTACT_ALLOWED_ORIGINS
    if not configured:
        site_url = settings.SITE_URL or Site.objects.values_list("url", flat=True).first() or ""
        configured = [site_url] + (LOCAL_AUTHORING_ORIGINS if settings.DEBUG else [])
    origins = {normalize_origin(origin, allow_path=True) for origin in configured if origin}
    origins.discard(None)
    return origins


def request_origin(request):
    """The origin the request says it comes from (normalized), or None: `Origin` when present
    (`null`, sent by sandboxed frames and some redirects, counts as no origin and is not
    replaced by the Referer), else the origin of `Referer`."""
    origin = request.headers.get("Origin")
    if origin is not None:
        return normalize_origin(origin)
    referer = request.headers.get("Referer")
    if referer:
        return normalize_origin(referer, allow_path=True)
    return None


def allowed_request_origin(request):
    """The request's origin when it is allowed, else None (the caller answers 403)."""
    origin = request_origin(request)
    return origin if origin is not None and origin in allowed_origins() else None
