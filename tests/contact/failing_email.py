"""An email backend whose server is down: every send raises, as smtplib does."""

import smtplib

from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPConnectError(421, "Service not available (test backend)")
