from urllib.parse import urlsplit

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from .client_address import trusted_networks
from .origins import normalize_origin
from .ratelimit import parse_rate


@checks.register
def check_contact_settings(app_configs, **kwargs):
    """Catch a mistyped CONTACT_RATE, allowed origin or trusted proxy at startup (manage.py migrate
    runs the checks) rather than at the first message."""
    errors = []
    try:
        parse_rate(settings.CONTACT_RATE)
    except ImproperlyConfigured as exc:
        errors.append(checks.Error(str(exc), id="contact.E001"))
    for origin in settings.CONTACT_ALLOWED_ORIGINS:
        if normalize_origin(origin, allow_path=True) is None:
            message = f"CONTACT_ALLOWED_ORIGINS has {origin!r}, which is not an http(s) origin"
            errors.append(checks.Error(message, id="contact.E002"))
    if isinstance(settings.CONTACT_TRUSTED_PROXIES, list | tuple):
        try:
            trusted_networks(tuple(settings.CONTACT_TRUSTED_PROXIES))
        except ImproperlyConfigured as exc:
            errors.append(checks.Error(str(exc), id="contact.E003"))
    errors += check_inbox_settings()
    return errors


def check_inbox_settings():
    """The proof of work's difficulty and expiry, and the webhook: a mistake here would make
    every message spam, or send them nowhere (or unsigned)."""
    errors = []
    if settings.CONTACT_CHALLENGE_MAXNUMBER < 1 or settings.CONTACT_CHALLENGE_EXPIRY < 1:
        message = "CONTACT_CHALLENGE_MAXNUMBER and CONTACT_CHALLENGE_EXPIRY must be at least 1"
        errors.append(checks.Error(message, id="contact.E004"))
    if settings.CONTACT_WEBHOOK_URL:
        url = urlsplit(settings.CONTACT_WEBHOOK_URL)
        if url.scheme not in ("http", "https") or not url.hostname:
            message = f"CONTACT_WEBHOOK_URL={settings.CONTACT_WEBHOOK_URL!r} is not an http(s) URL"
            errors.append(checks.Error(message, id="contact.E005"))
        if not settings.CONTACT_WEBHOOK_SECRET:
            message = (
                "CONTACT_WEBHOOK_URL is set without CONTACT_WEBHOOK_SECRET: receivers could not check posts"
            )
            errors.append(checks.Error(message, id="contact.E006"))
    return errors
