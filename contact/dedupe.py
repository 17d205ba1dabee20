"""Nothing doubled: the same name, email and message sent again by the same client within the rate
window (a double click, a retry after a dropped connection) is stored and mailed once, and both
posts are answered as a success.

The shared cache makes the claim atomic across processes (two clicks a few milliseconds apart
reach two gunicorn workers); the stored messages still answer when the cache is down or forgot.
"""

import json
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.crypto import salted_hmac

from .models import ContactMessage
from .ratelimit import CacheDown, cache_call, parse_rate


def fingerprint(client, fields):
    """A keyed hash of who sent what (no message text in the cache's keys)."""
    parts = json.dumps([client, fields["name"], fields["email"], fields["message"]])
    return salted_hmac("contact.dedupe", parts, algorithm="sha256").hexdigest()


def claim(print_):
    """True when no message with this fingerprint was stored, or is being stored, in the window."""
    window = parse_rate(settings.CONTACT_RATE).window
    try:
        if not cache_call("add", f"contact-seen:{print_}", 1, timeout=window):
            return False
    except CacheDown:
        pass
    since = timezone.now() - timedelta(seconds=window)
    return not ContactMessage.objects.filter(fingerprint=print_, created_at__gte=since).exists()


def release(print_):
    """Forget a claim whose message could not be stored, so a retry stores it."""
    try:
        cache_call("delete", f"contact-seen:{print_}")
    except CacheDown:
        pass
