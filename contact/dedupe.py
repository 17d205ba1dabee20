"""Nothing doubled: the same name, email and message sent again by the same client within the rate
window (a double click, a retry after a dropped connection or a 5xx) is stored and mailed once,
and every copy is answered as a success.

The database decides, nothing else: a message's fingerprint names its sender, its fields and its
window, and the column is unique. Two workers storing the same message at once cannot both
succeed, and a request that dies half-way (its worker killed, its database gone) leaves no claim
behind that could answer for it: its transaction is rolled back, so the retry stores the message.
"""

import json
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from . import challenge
from .models import ContactMessage, UsedChallenge
from .ratelimit import parse_rate


def fingerprints(client, fields, now):
    """The keyed hashes (no message text is readable from them) of this message in the current
    window and in the one before: windows are clock-aligned, so a retry a second after a boundary
    finds the copy stored a second before it."""
    window = parse_rate(settings.CONTACT_RATE).window
    index = int(now.timestamp() // window)
    parts = [client, fields["name"], fields["email"], fields["message"]]
    return [
        salted_hmac("contact.dedupe", json.dumps([*parts, n]), algorithm="sha256").hexdigest()
        for n in (index, index - 1)
    ]


def store(client, fields, now=None, verdict=None, **extra):
    """Store a message unless a copy is stored already: (message, created). The message is
    committed when this returns; any failure raises, and then nothing was stored.

    `verdict` (contact.challenge.Verdict) decides its status: spam unless its reason is "", and a
    valid solution is spent with the message, in its transaction (spent already: spam, replayed).
    A copy (a retry with the same solution) is found before the solution is looked at."""
    now = now or timezone.now()
    current, previous = fingerprints(client, fields, now)
    since = now - timedelta(seconds=parse_rate(settings.CONTACT_RATE).window)
    copies = ContactMessage.objects.filter(fingerprint__in=[current, previous], created_at__gte=since)
    stored = copies.first()
    if stored is not None:
        return stored, False
    try:
        with transaction.atomic():
            reason = verdict.reason if verdict else ""
            if not reason and verdict and verdict.key and not spend(verdict, now):
                reason = challenge.REPLAYED
            status = ContactMessage.Status.SPAM if reason else ContactMessage.Status.HAM
            owed = status == ContactMessage.Status.HAM and bool(settings.CONTACT_WEBHOOK_URL)
            message = ContactMessage.objects.create(
                **fields, **extra, fingerprint=current, status=status, spam_reason=reason, webhook_owed=owed
            )
            return message, True
    except IntegrityError:
        # Another request stored it first (the unique fingerprint waited for its commit).
        stored = ContactMessage.objects.filter(fingerprint=current).first()
        if stored is None:
            raise
        return stored, False


def spend(verdict, now):
    """Record a valid solution as used: False when it was used already. Expired records go first
    (their challenges are refused as expired anyway)."""
    UsedChallenge.objects.filter(expires_at__lt=now).delete()
    try:
        with transaction.atomic():
            UsedChallenge.objects.create(key=verdict.key, expires_at=verdict.expires)
    except IntegrityError:
        return False
    return True
