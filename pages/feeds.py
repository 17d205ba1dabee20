"""/feed.xml: one Atom feed of projects and published articles, newest first (then by slug).

Every link and id is absolute from base_url: syndication would otherwise complete relative links
with the request's host, which django-distill's internal request gets wrong."""

import datetime
import io
from itertools import chain

from django.contrib.syndication.views import Feed
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape

from pages.plain_text import xml_text
from portfolio.content.models import Article, Project, Site


def midnight_utc(day):
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=datetime.UTC)


class AtomFeed(Atom1Feed):
    def write(self, outfile, encoding):
        # The XML writer makes one write per tag and text: 370,000 writes into the response at
        # 10,000 entries, half the feed's cost. One write of the whole string instead.
        buffer = io.StringIO()
        super().write(buffer, encoding)
        outfile.write(buffer.getvalue())


class SiteFeed(Feed):
    feed_type = AtomFeed
    # The newest entries only, as feeds usually carry (djangoproject's: 10): a reader polls this
    # file, and a site of 10,000 articles would send 5 MB each time. The sitemaps and llms.txt
    # list everything.
    max_entries = 50

    def get_object(self, request):
        return Site.load()

    # Every text goes through xml_text: Django's XML writer raises on a control character (a
    # failed build), and lets U+FFFE through (a feed that is not well-formed).
    def title(self, site):
        return xml_text(site.title)

    def subtitle(self, site):
        return xml_text(site.description)

    def link(self, site):
        return xml_text(f"{site.base_url}/")

    def feed_url(self, site):
        return xml_text(site.base_url + reverse("pages:feed"))

    def author_name(self, site):
        return xml_text(site.author)

    def items(self, site):
        # Both models are ordered newest first, then by slug, as the merged entries are.
        newest = slice(0, self.max_entries)
        projects = Project.objects.only("slug", "title", "description", "stack", "date")[newest]
        articles = Article.objects.published().only("slug", "title", "description", "tags", "date")[newest]
        entries = sorted(chain(projects, articles), key=lambda entry: (-entry.date.toordinal(), entry.slug))
        entries = entries[newest]
        for entry in entries:
            entry.absolute_url = xml_text(site.base_url + entry.get_absolute_url())
        return entries

    def item_title(self, entry):
        return xml_text(entry.title)

    def item_description(self, entry):
        # Atom1Feed declares the summary type="html": the plain-text description is escaped.
        return escape(xml_text(entry.description))

    def item_link(self, entry):
        return entry.absolute_url

    def item_pubdate(self, entry):
        return midnight_utc(entry.date)

    def item_updateddate(self, entry):
        return midnight_utc(entry.date)

    def item_categories(self, entry):
        if isinstance(entry, Project):
            return ["project", *map(xml_text, entry.stack)]
        return ["article", *map(xml_text, entry.tags)]
