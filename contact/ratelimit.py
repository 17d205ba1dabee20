"""A fixed-window rate limit per client address, counted in Django's cache.

Written on the cache API (atomic `add` then `incr`) rather than with django-ratelimit, which refuses
local-memory caches with a system check error, and local memory is what the authoring server and
`distill-local` use. Fixed window: a client gets N requests per clock-aligned window (say 10:00 to
10:10), so a burst straddling a boundary can reach 2N; acceptable for a contact form.
"""

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
    match = RATE_PATTERN.fullmatch(text or "")
    if not match or int(match[1]) < 1 or match[2] == "0":
        raise ImproperlyConfigured(
            f"CONTACT_RATE={text!r} is not N/<window> with N >= 1 and a window such as 30s, 10m, h or 1d"
        )
    return Rate(int(match[1]), int(match[2] or 1) * UNIT_SECONDS[match[3]])


class CacheDown(Exception):
    """The shared cache (Redis) failed or is being skipped after a recent failure."""


# After a failure the cache is left alone for a while, so a hung Redis costs one request one
# timeout (0.25 s, settings.CACHES), not every request every time.
CACHE_PAUSE_SECONDS = 5
_cache_down_until = 0.0

# The clocks, looked up at each call so that a test can turn them by hand: the wall clock places
# the clock-aligned windows, the monotonic one times the pause (it never jumps with the date).
wall_clock = time.time
pause_clock = time.monotonic


def cache_call(method, *args, **kwargs):
    """cache.<method>(...), or CacheDown when it fails (logged once per pause)."""
    global _cache_down_until
    if pause_clock() < _cache_down_until:
        raise CacheDown
    try:
        return getattr(cache, method)(*args, **kwargs)
    except ValueError:  # an answer, not a failure: incr of a key that is gone
        raise
    except Exception as exc:
        _cache_down_until = pause_clock() + CACHE_PAUSE_SECONDS
        logger.exception("The contact cache failed: no rate limit for %ss", CACHE_PAUSE_SECONDS)
        raise CacheDown from exc


def hit(client, now=None, scope="contact-rate"):
    """Count one request by `client` (client_address.bucket()); return 0 when it is allowed, else
    the seconds until its window ends (for Retry-After). Each `scope` (the post, the challenge)
    counts on its own, so fetching a challenge costs no post."""
    rate = parse_rate(settings.CONTACT_RATE)
    now = wall_clock() if now is None else now
    window_index = int(now // rate.window)
    key = f"{scope}:{rate.limit}/{rate.window}:{client}:{window_index}"
    try:
        # The key outlives its window by a little, so incr never finds it expired mid-window.
        # `add` sets and counts in one call when the key is new.
        if cache_call("add", key, 1, timeout=rate.window + 5):
            count = 1
        else:
            try:
                count = cache_call("incr", key)
            except ValueError:  # evicted between add and incr
                count = 1
    except CacheDown:
        # A broken cache (Redis down or hung) must not turn real messages away: let it through.
        return 0
    if count <= rate.limit:
        return 0
    return max(1, math.ceil((window_index + 1) * rate.window - now))
