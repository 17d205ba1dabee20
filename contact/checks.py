import math
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
        problem = webhook_url_problem(settings.CONTACT_WEBHOOK_URL)
        if problem:
            message = f"CONTACT_WEBHOOK_URL={settings.CONTACT_WEBHOOK_URL!r} {problem}"
            errors.append(checks.Error(message, id="contact.E005"))
        if not settings.CONTACT_WEBHOOK_SECRET:
            message = (
                "CONTACT_WEBHOOK_URL is set without CONTACT_WEBHOOK_SECRET: receivers could not check posts"
            )
            errors.append(checks.Error(message, id="contact.E006"))
    for name in ("CONTACT_KEEP_DAYS", "CONTACT_SPAM_KEEP_DAYS"):
        days = getattr(settings, name)
        if days is not None and days <= 0:  # every message would be deleted at the next prune
            message = f"{name}={days} keeps nothing: a number of days of at least 1 (or unset)"
            errors.append(checks.Error(message, id="contact.E007"))
    for name in ("CONTACT_WEBHOOK_TIMEOUT", "EMAIL_TIMEOUT"):
        timeout = getattr(settings, name)
        if not isinstance(timeout, int | float) or not math.isfinite(timeout) or timeout <= 0:
            message = f"{name}={timeout!r} is no deadline: a number of seconds above 0"
            errors.append(checks.Error(message, id="contact.E008"))
    return errors


def webhook_url_problem(value):
    """Why `value` cannot be posted to (it says what it is not), or None."""
    if any(character.isspace() or ord(character) < 32 for character in value):
        return "holds a space or control character"
    try:
        url = urlsplit(value)
        port = url.port  # ValueError when not a number from 0 to 65535
    except ValueError as exc:
        return f"does not parse: {exc}"
    if url.scheme not in ("http", "https") or not url.hostname:
        return "is not an http(s) URL"
    if port == 0:
        return "has port 0"
    return None


def errors_at_start():
    """The contact settings' errors, raised as one ImproperlyConfigured naming each: the service
    (portfolio/wsgi.py with CONTACT_SERVICE=1) does not start with a setting that cannot work."""
    errors = check_contact_settings(None)
    if errors:
        raise ImproperlyConfigured("; ".join(f"{error.msg} ({error.id})" for error in errors))
