"""Scheduled articles: one dated after the build's date (settings.BUILD_DATE, else today) is not
published yet. The import stores it as a draft (`draft`, so it is absent from every surface a
draft is absent from, and a link to it is refused as a link to a draft is) with a ScheduledArticle
row beside it, and its body rendered: a later import publishes it without any edit. Each import first
looks for articles whose date and state disagree (a scheduled one come due, or a published one
now in the future because BUILD_DATE went back) and parses their files again. The build records
the window of dates in which no article changes state (the latest published date, the earliest
scheduled one) and is never "Up to date" outside it; BUILD_DATE itself is left out of the build's
fingerprint of the settings, since what it changes is exactly that.
"""

import datetime

from django.conf import settings
from django.db.models import Max, Min, Q

from . import rules
from .models import Article, ScheduledArticle, Translation


def build_date():
    return settings.BUILD_DATE or datetime.date.today()


def hold(rel, fields):
    """Mark a parsed article's fields as scheduled when its date is after the build's, and a
    translation's (of any kind) when it writes a date of its own."""
    if rel.startswith("articles/") or rules.translation_of(rel):
        if not fields.get("draft") and fields.get("date") and fields["date"] > build_date():
            fields["draft"] = fields["scheduled"] = True


def shifted():
    """The files of the articles whose date and state no longer agree, to parse again."""
    today = build_date()
    due = ScheduledArticle.objects.filter(date__lte=today).values_list("slug", flat=True)
    early = Article.objects.published().filter(date__gt=today).values_list("slug", flat=True)
    # The translations' too (their own `date`): a scheduled one come due, a published one early.
    translations = Translation.objects.filter(
        Q(scheduled=True, date__lte=today) | Q(draft=False, date__gt=today)
    )
    return {f"articles/{slug}.md" for slug in [*due, *early]} | set(
        translations.values_list("source_path", flat=True)
    )


def window():
    """[latest published article's date, earliest scheduled article's date] (ISO, or None where
    there is none): while the build's date stays within them, no article changes state."""
    latest = Article.objects.published().aggregate(day=Max("date"))["day"]
    earliest = ScheduledArticle.objects.aggregate(day=Min("date"))["day"]
    own = Translation.objects.aggregate(
        latest=Max("date", filter=Q(draft=False)), earliest=Min("date", filter=Q(scheduled=True))
    )
    latest = max(filter(None, [latest, own["latest"]]), default=None)
    earliest = min(filter(None, [earliest, own["earliest"]]), default=None)
    return [day.isoformat() if day else None for day in (latest, earliest)]


def within(recorded):
    """Does the build's date leave every article as a build that recorded window() left it?"""
    if not isinstance(recorded, list) or len(recorded) != 2:
        return False  # recorded by a build before scheduling: not known
    today, (latest, earliest) = build_date(), recorded
    if latest and today < datetime.date.fromisoformat(latest):
        return False  # BUILD_DATE went back: a published article is in the future again
    return not (earliest and today >= datetime.date.fromisoformat(earliest))  # come due
