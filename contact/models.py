from django.db import models


class ContactMessage(models.Model):
    """A message sent through the contact form. Saved before anyone is notified, so a failing
    mail server never loses one; `notified_at` stays empty until the notification went out, and
    `manage.py send_contact_notifications` sends what is still owed (contact/notifications.py)."""

    name = models.CharField(max_length=200)
    email = models.EmailField(max_length=254)
    message = models.TextField(max_length=5000)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    origin = models.CharField(max_length=255, help_text="The allowed origin the form was posted from.")
    client_address = models.GenericIPAddressField(null=True, blank=True)
    user_agent = models.CharField(max_length=500, blank=True)
    notified_at = models.DateTimeField(
        null=True, blank=True, help_text="When the notification email was sent; empty if it was not."
    )
    # Who sent what in which window, hashed (contact/dedupe.py). Unique, so the database itself
    # refuses a second copy of a message, whichever process or host tries to store it. NULL (not
    # "") for the rows of before migration 0003, which had none that could be unique.
    fingerprint = models.CharField(max_length=64, unique=True, null=True, editable=False)  # noqa: DJ001
    # When a process took on sending the notification (contact/notifications.py): a claim, so
    # two senders never both send it, and one that died is taken over once the claim is stale.
    notifying_since = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.name} <{self.email}>"
