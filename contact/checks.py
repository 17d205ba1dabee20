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
    return errors
