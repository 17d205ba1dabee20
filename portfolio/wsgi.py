"""WSGI entry point (used by gunicorn for the contact service)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portfolio.settings")

application = get_wsgi_application()

from django.conf import settings  # noqa: E402  (configured by the line above)

if settings.CONTACT_SERVICE:  # a contact setting that cannot work stops the start, named
    from contact.checks import errors_at_start  # noqa: E402

    errors_at_start()
