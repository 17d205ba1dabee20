"""A fixed-window rate limit per client address, counted in Django's cache.

Written on the cache API (atomic `add` then `incr`) rather than with django-ratelimit, which refuses
local-memory caches with a system check error, and local memory is what the authoring server and
`distill-local` use. Fixed window: a client gets N requests per clock-aligned window (say 10:00 to
10:10), so a burst straddling a boundary can reach 2N; acceptable for a contact form.
"""

import ipaddress
import logging
import math
import re
import time
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured

logger = logging.getLogger(__name__)

UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
RATE_PATTERN = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$")


@dataclass(frozen=True)
class Rate:
    limit: int
    window: int  # seconds


@lru_cache
def parse_rate(text):
    """`5/10m` -> Rate(5, 600); `100/h` -> Rate(100, 3600)."""
    match = RATE_PATTERN.match(text or "")
    if not match or int(match[1]) < 1 or match[2] == "0":
        raise ImproperlyConfigured(
            f"CONTACT_RATE={text!r} is not N/<window> with N >= 1 and a window such as 30s, 10m, h or 1d"
        )
    return Rate(int(match[1]), int(match[2] or 1) * UNIT_SECONDS[match[3]])


def client_address(request):
    """The socket peer, unless CONTACT_TRUSTED_PROXIES says how many proxies in front of us append
    to X-Forwarded-For: then the entry the outermost trusted proxy added. Entries further left are
    whatever the client chose to send, so they are never trusted."""
    trusted = settings.CONTACT_TRUSTED_PROXIES
    if trusted > 0:
        entries = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        entries = [entry for entry in entries if entry]
        if len(entries) >= trusted:
            try:
                return str(ipaddress.ip_address(entries[-trusted]))
            except ValueError:
                logger.warning("Ignoring an X-Forwarded-For entry that is not an address: %r", entries)
    return request.META.get("REMOTE_ADDR", "")


def hit(client, now=None):
    """Count one request by `client`; return 0 when it is allowed, else the seconds until its
    window ends (for Retry-After)."""
    rate = parse_rate(settings.CONTACT_RATE)
    now = time.time() if now is None else now
    window_index = int(now // rate.window)
    key = f"contact-rate:{rate.limit}/{rate.window}:{client}:{window_index}"
    try:
        # The key outlives its window by a little, so incr never finds it expired mid-window.
        cache.add(key, 0, timeout=rate.window + 5)
        try:
            count = cache.incr(key)
        except ValueError:  # evicted between add and incr
            cache.add(key, 1, timeout=rate.window + 5)
            count = 1
    except Exception:
        # A broken cache (Redis down) must not turn real messages away: let it through, loudly.
        logger.exception("Contact rate limit not applied: the cache failed")
        return 0
    if count <= rate.limit:
        return 0
    return max(1, math.ceil((window_index + 1) * rate.window - now))
