"""The owner's control of what was received: export (CSV, JSON), retention (prune) and erasure
(forget a sender), on real SQLite (tests/contact/test_service.py runs them on PostgreSQL too)."""

import csv
import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError, SystemCheckError
from django.utils import timezone

from contact.models import ContactMessage, UsedChallenge

pytestmark = pytest.mark.django_db

EVERY_FIELD = [field.name for field in ContactMessage._meta.concrete_fields]


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def make(name, email="ada@example.com", status="ham", age_days=0, **fields):
    message = ContactMessage.objects.create(
        name=name, email=email, message=f"From {name}, with a comma, a \"quote\"\nand a line.",
        status=status, **{"origin": "https://portfolio.test", **fields},
    )  # fmt: skip
    ContactMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(days=age_days))
    message.refresh_from_db()
    return message


@pytest.fixture
def inbox():
    return [
        make("Ada", age_days=2),
        make("Bot", email="bot@spam.example", status="spam", spam_reason="missing", age_days=1),
        make("Zoë", email="zoe@example.com", client_address="2001:db8::1", user_agent="Firefox"),
    ]


def test_json_export_has_every_field_of_every_message_oldest_first(inbox):
    rows = json.loads(run("export_contact_messages", "--format", "json"))
    assert [row["name"] for row in rows] == ["Ada", "Bot", "Zoë"]
    assert all(list(row) == EVERY_FIELD for row in rows)
    zoe = rows[2]
    assert zoe["message"] == inbox[2].message and zoe["client_address"] == "2001:db8::1"
    assert zoe["created_at"] == inbox[2].created_at.isoformat() and zoe["notified_at"] is None


def test_csv_export_has_a_header_row_and_survives_commas_quotes_and_line_breaks(inbox):
    text = run("export_contact_messages", "--format", "csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == EVERY_FIELD
    records = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert [(r["name"], r["status"], r["message"]) for r in records] == [
        (m.name, m.status, m.message) for m in inbox
    ]
    assert records[0]["notified_at"] == "" and records[1]["spam_reason"] == "missing"


@pytest.mark.parametrize(
    "status, names", [("spam", ["Bot"]), ("ham", ["Ada", "Zoë"]), ("all", ["Ada", "Bot", "Zoë"])]
)
def test_export_by_status(inbox, status, names):
    rows = json.loads(run("export_contact_messages", "--format", "json", "--status", status))
    assert [row["name"] for row in rows] == names
    text = run("export_contact_messages", "--format", "csv", "--status", status)
    assert [row["name"] for row in csv.DictReader(io.StringIO(text))] == names


def test_export_refuses_an_unknown_format():
    with pytest.raises(CommandError, match="invalid choice"):
        call_command("export_contact_messages", "--format", "xml")


def test_prune_deletes_old_spam_and_keeps_other_messages_by_default(settings):
    old_spam = make("Old spam", status="spam", age_days=31)
    make("New spam", status="spam", age_days=29)
    make("Old ham", age_days=400)
    UsedChallenge.objects.create(key="spent", expires_at=timezone.now() - timedelta(minutes=1))
    out = run("prune_contact_messages")
    assert "Deleted 1 spam message(s) older than 30 days and 0 other message(s) (kept)." in out
    assert sorted(ContactMessage.objects.values_list("name", flat=True)) == ["New spam", "Old ham"]
    assert not ContactMessage.objects.filter(pk=old_spam.pk).exists()
    assert not UsedChallenge.objects.exists()


def test_prune_follows_the_keep_settings(settings):
    settings.CONTACT_SPAM_KEEP_DAYS = 7
    settings.CONTACT_KEEP_DAYS = 365
    make("Spam of 8 days", status="spam", age_days=8)
    make("Spam of 6 days", status="spam", age_days=6)
    make("Ham of 366 days", age_days=366, notified_at=timezone.now())
    make("Ham of 364 days", age_days=364)
    out = run("prune_contact_messages")
    assert "Deleted 1 spam message(s) older than 7 days and 1 other message(s) (after 365 days)." in out
    assert sorted(ContactMessage.objects.values_list("name", flat=True)) == [
        "Ham of 364 days",
        "Spam of 6 days",
    ]


def test_prune_keeps_a_message_whose_delivery_is_owed(settings):
    settings.CONTACT_KEEP_DAYS = 30
    settings.CONTACT_WEBHOOK_URL, settings.CONTACT_WEBHOOK_SECRET = "https://hooks.example/in", "s"
    now = timezone.now()
    make("Mail owed", age_days=40, webhook_owed=True, webhook_sent_at=now)
    make("Webhook owed", age_days=40, notified_at=now, webhook_owed=True)
    make("Delivered", age_days=40, notified_at=now, webhook_owed=True, webhook_sent_at=now)
    make("Spam", status="spam", age_days=40)  # spam is never delivered: nothing owed
    out = run("prune_contact_messages")
    assert "and 1 other message(s) (after 30 days)." in out
    assert sorted(ContactMessage.objects.values_list("name", flat=True)) == ["Mail owed", "Webhook owed"]
    ContactMessage.objects.update(notified_at=now, webhook_sent_at=now, webhook_owed=False)
    assert "and 2 other message(s)" in run("prune_contact_messages")  # once delivered


@pytest.mark.parametrize(
    "value", ["=HYPERLINK(\"https://evil.example\",\"x\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)",
              "\t=1+1", "\r=1+1"],
)  # fmt: skip
def test_csv_export_neutralizes_formulas(value):
    make(value, email="eve@example.com", user_agent=value, origin=value)
    rows = list(csv.DictReader(io.StringIO(run("export_contact_messages", "--format", "csv"))))
    assert (rows[0]["name"], rows[0]["origin"], rows[0]["user_agent"]) == ("'" + value,) * 3
    assert rows[0]["message"].startswith("From ")  # text that is no formula is as it was
    assert json.loads(run("export_contact_messages", "--format", "json"))[0]["name"] == value  # as sent


def test_forget_deletes_every_message_of_an_address_in_any_case():
    make("One", email="ada@example.com")
    make("Two", email="Ada@Example.COM", status="spam")
    make("Three", email="ÄDA@example.com")
    make("Other", email="bob@example.com")
    assert (
        run("forget_contact_sender", "ADA@example.com").strip()
        == "Deleted 2 message(s) from ADA@example.com."
    )
    assert (
        run("forget_contact_sender", "äda@EXAMPLE.com").strip()
        == "Deleted 1 message(s) from äda@EXAMPLE.com."
    )
    assert list(ContactMessage.objects.values_list("name", flat=True)) == ["Other"]
    assert run("forget_contact_sender", "nobody@example.com").strip().startswith("Deleted 0 message(s)")


def test_forget_refuses_what_is_not_an_address():
    with pytest.raises(CommandError, match="not an email address"):
        call_command("forget_contact_sender", "ada")


@pytest.mark.parametrize(
    "setting, value, code",
    [
        ("CONTACT_CHALLENGE_MAXNUMBER", 0, "contact.E004"),
        ("CONTACT_CHALLENGE_EXPIRY", -5, "contact.E004"),
        ("CONTACT_WEBHOOK_URL", "ftp://hooks.example", "contact.E005"),
        ("CONTACT_WEBHOOK_URL", "https://hooks.example/in", "contact.E006"),  # no secret
        ("CONTACT_WEBHOOK_URL", "https://hooks.example/a b", "contact.E005.*space"),
        ("CONTACT_WEBHOOK_URL", "https://hooks.example:99999/in", "contact.E005.*out of range"),
        ("CONTACT_WEBHOOK_URL", "https://hooks.example:http/in", "contact.E005.*does not parse"),
        ("CONTACT_WEBHOOK_URL", "https://[::1/in", "contact.E005.*does not parse"),
        ("CONTACT_KEEP_DAYS", 0, "contact.E007.*CONTACT_KEEP_DAYS=0"),
        ("CONTACT_KEEP_DAYS", -3, "contact.E007"),
        ("CONTACT_SPAM_KEEP_DAYS", 0, "contact.E007.*CONTACT_SPAM_KEEP_DAYS"),
        ("CONTACT_WEBHOOK_TIMEOUT", 0.0, "contact.E008.*CONTACT_WEBHOOK_TIMEOUT=0.0"),
        ("CONTACT_WEBHOOK_TIMEOUT", -5.0, "contact.E008"),
        ("CONTACT_WEBHOOK_TIMEOUT", float("nan"), "contact.E008.*nan"),
        ("CONTACT_WEBHOOK_TIMEOUT", float("inf"), "contact.E008"),
        ("EMAIL_TIMEOUT", 0, "contact.E008.*EMAIL_TIMEOUT"),
    ],
)
def test_the_inbox_settings_are_checked_at_startup(settings, setting, value, code):
    if setting == "CONTACT_WEBHOOK_URL":
        settings.CONTACT_WEBHOOK_SECRET = "" if code == "contact.E006" else "s"
    setattr(settings, setting, value)
    with pytest.raises(SystemCheckError, match=code):
        call_command("check")


def test_a_webhook_with_its_secret_passes_the_checks(settings):
    settings.CONTACT_WEBHOOK_URL, settings.CONTACT_WEBHOOK_SECRET = "https://hooks.example/in", "s"
    call_command("check")


def test_forget_matches_every_unicode_form_and_clears_the_admin_log():
    """`exa\u0308mple` (e, a, a combining umlaut) is `exämple`; the admin's log kept the sender's
    name and address as the object's text (`Ada Lovelace <Ada@Example.com>`)."""
    from django.contrib.admin.models import CHANGE, DELETION, LogEntry
    from django.contrib.auth.models import User
    from django.contrib.contenttypes.models import ContentType

    composed = make("Ada Lovelace", email="Ada@Exämple.com")
    decomposed = make("Ada Lovelace", email="ada@exa\u0308mple.com")
    other = make("Bada", email="bada@exämple.com")  # another address ending the same way
    user = User.objects.create_superuser("admin", "admin@portfolio.test", "pw")
    kind = ContentType.objects.get_for_model(ContactMessage)

    def log(message, flag=CHANGE, text=None, change=""):
        return LogEntry.objects.create(
            user=user, content_type=kind, object_id=str(message.pk), object_repr=text or str(message),
            action_flag=flag, change_message=change,
        )  # fmt: skip

    log(composed)
    log(decomposed, flag=DELETION)
    log(other, text="Other", change="Replied to Ada@EXÄMPLE.com")  # names her: goes
    kept = [log(other), log(other, text="Bada <bada@exämple.com>")]
    out = run("forget_contact_sender", "ADA@EXA\u0308MPLE.COM")
    assert out.splitlines() == [
        "Deleted 2 message(s) from ADA@EXA\u0308MPLE.COM.",
        "Deleted 3 admin log entries about them or naming the address.",
    ]
    assert list(ContactMessage.objects.all()) == [other]
    assert list(LogEntry.objects.order_by("pk")) == kept
