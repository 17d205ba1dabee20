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

    class Status(models.TextChoices):
        HAM = "ham", "not spam"
        SPAM = "spam", "spam"

    # Spam is stored (to review, contact/admin.py) and never notified; `spam_reason` says why it
    # was taken for spam: no, an invalid, expired or replayed proof of work (contact/challenge.py),
    # the honeypot, or the owner's review ("marked").
    status = models.CharField(max_length=4, choices=Status.choices, default=Status.HAM, db_index=True)
    spam_reason = models.CharField(max_length=20, blank=True)
    # The webhook (contact/webhooks.py): owed from when a message is stored as not spam while
    # CONTACT_WEBHOOK_URL is set until a receiver took it; claimed as the notification is.
    webhook_owed = models.BooleanField(default=False, editable=False)
    webhook_sent_at = models.DateTimeField(
        null=True, blank=True, help_text="When the webhook receiver took it; empty if it did not."
    )
    webhook_since = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.name} <{self.email}>"


class UsedChallenge(models.Model):
    """A proof of work already spent on a message: the same solution again is spam. Kept until
    its challenge expires (after that it is refused as expired anyway)."""

    key = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self):
        return self.key
