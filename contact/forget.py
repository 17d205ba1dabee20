"""Forgetting a sender (`manage.py forget_contact_sender`, and deleting messages in the admin):
every trace of them the service keeps goes. Their messages (and with each its outbox fields: the
mail and webhook it still owed, its dedupe fingerprint) and the admin log's entries that name
them or their messages (`object_repr` is `Ada Lovelace <Ada@Example.com>`).

Addresses are compared in one normal form, Unicode NFC then case-folded: `Ada@Example.COM`,
`ÄDA@example.com` and `exa\u0308mple` (a combining umlaut) each match their other spellings.
Compared in Python: SQLite's case-insensitive match folds ASCII letters only, and no database
normalizes Unicode.
"""

import re
import unicodedata

from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction

from .models import ContactMessage

# What the admin's log keeps of a message deleted there: its number, not its sender.
FORGOTTEN = "message {pk} (sender forgotten)"


def normal(address):
    """The form addresses are compared in: NFC, case-folded (folding can undo NFC: again)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", address).casefold())


def mentions(text, address):
    """Whether `text` names `address` (in normal form) as a whole address, not inside another
    (`ada@example.com` is not in `bada@example.com`)."""
    return re.search(rf"(?<![\w.+-]){re.escape(address)}(?![\w.-])", normal(text)) is not None


def forget(address):
    """Delete every message from `address` and every admin log entry naming it or one of those
    messages: (messages, log entries) deleted."""
    wanted = normal(address)
    pks = [pk for pk, email in ContactMessage.objects.values_list("pk", "email").iterator()
           if normal(email) == wanted]  # fmt: skip
    with transaction.atomic():
        messages = ContactMessage.objects.filter(pk__in=pks).delete()[0] if pks else 0
        entries = forget_log_entries({wanted}, pks)
    return messages, entries


def forget_log_entries(addresses, pks):
    """Delete the admin log's entries about messages `pks` or naming one of `addresses` (in
    normal form), except the admin's own record that a message was deleted (FORGOTTEN)."""
    kind = ContentType.objects.get_for_model(ContactMessage)
    ids = {str(pk) for pk in pks}
    doomed = []
    for entry in LogEntry.objects.only(
        "object_repr", "change_message", "content_type", "object_id"
    ).iterator():
        about = entry.content_type_id == kind.pk and entry.object_id in ids
        if about and entry.object_repr == FORGOTTEN.format(pk=entry.object_id):
            continue
        text = f"{entry.object_repr}\n{entry.change_message}"
        if about or any(mentions(text, address) for address in addresses):
            doomed.append(entry.pk)
    return LogEntry.objects.filter(pk__in=doomed).delete()[0] if doomed else 0


def log_deletions(user, messages):
    """The admin's record of messages deleted: who deleted which numbers, and nothing of the
    senders (their names and addresses would outlive them in the log)."""
    kind = ContentType.objects.get_for_model(ContactMessage)
    return LogEntry.objects.bulk_create(
        LogEntry(
            user_id=user.pk, content_type_id=kind.pk, object_id=str(message.pk),
            object_repr=FORGOTTEN.format(pk=message.pk), action_flag=DELETION, change_message="",
        )
        for message in messages
    )  # fmt: skip


def delete(messages):
    """Delete `messages` (a queryset or list) as forgetting does: with every log entry about
    them or naming their senders."""
    messages = list(messages)
    with transaction.atomic():
        ContactMessage.objects.filter(pk__in=[m.pk for m in messages]).delete()
        forget_log_entries({normal(m.email) for m in messages}, [m.pk for m in messages])
