"""What the two notifications of a stored message share (the mail, contact/notifications.py; the
webhook, contact/webhooks.py): a sender claims a message before it sends, so two processes never
both send it, and the loop that sends all that is still owed.

A claim is a timestamp field: one UPDATE that only one process can win. It is released when the send
fails, and taken over once it is older than the channel's lifetime: its process died without saying
how the send went.
"""

from django.db import transaction
from django.db.models import Q
from django.utils import timezone


def record(messages, **fields):
    """UPDATE in a savepoint of its own: inside a transaction, a failure leaves it usable."""
    with transaction.atomic():
        return messages.update(**fields)


def claim(owed, pk, field, lifetime):
    """True when this process may send message `pk` of the `owed` ones (and now must): `field`
    is empty, or older than `lifetime`, and is set to now."""
    now = timezone.now()
    free = Q(**{field: None}) | Q(**{f"{field}__lt": now - lifetime})
    return bool(record(owed.filter(free, pk=pk), **{field: now}))


def send_owed(owed, claim, send):
    """Send every message of `owed` that `claim` wins (others are being sent by another
    process) with `send`, which says whether it went out: (sent, failed) counts."""
    sent = failed = 0
    for message in owed.iterator():
        if claim(message.pk):
            if send(message):
                sent += 1
            else:
                failed += 1
    return sent, failed
