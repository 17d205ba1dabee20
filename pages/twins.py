"""Markdown twins: every project and published article page has a plain markdown version at its
address plus `.md` (the llms.txt proposal), and /llms-full.txt holds all of them.

A twin is written from the item's API document (the same serializer as
`/api/v1/{kind}/{slug}.json`), so the two cannot disagree, and the build's verification can
rewrite each twin from the built JSON file and compare (portfolio/export/verify.py):

    # Title

    - Date: 2026-03-01
    - Status: active              (projects: tagline, status, stack, source; articles: tags)
    - Page: https://example.com/projects/alpha
    - JSON: https://example.com/api/v1/projects/alpha.json

    The description.

    The raw markdown body, as written.
"""

import heapq

from django.conf import settings
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.template.loader import render_to_string
from django.views import View
from django.views.generic.detail import SingleObjectMixin

from api.serializers import ArticleDetailSerializer, ProjectDetailSerializer
from portfolio.batch import Batched
from portfolio.content.models import Article, Page, Project, Site

from .plain_text import oneline

MARKDOWN = "text/markdown; charset=utf-8"
TEXT = "text/plain; charset=utf-8"
RUN = 500  # items serialized at once (one many=True serializer builds its fields once)
SEPARATOR = b"\n---\n\n"  # before each twin in llms-full.txt


def project_markdown(item):
    """A project's twin from its API document (ProjectDetail)."""
    facts = [("Tagline", item["tagline"]), ("Status", item["status"]), ("Date", item["date"])]
    if item["stack"]:
        facts.append(("Stack", ", ".join(item["stack"])))
    facts.append(("Source", item["github"]))
    sections = [item["description"]]
    if item["caseStudy"]:
        case_study = "\n".join(
            f"- {oneline(key)}: {oneline(value)}" for key, value in item["caseStudy"].items()
        )
        sections.append(f"## Case study\n\n{case_study}")
    return _twin(item, facts, sections)


def article_markdown(item):
    """An article's twin from its API document (ArticleDetail)."""
    facts = [("Date", item["date"])]
    if item["tags"]:
        facts.append(("Tags", ", ".join(item["tags"])))
    return _twin(item, facts, [item["description"]])


def _twin(item, facts, sections):
    # The JSON's .json form: it works on every host (the spec's path forms).
    facts += [("Page", item["url"]), ("JSON", item["apiUrl"] + ".json")]
    parts = [
        f"# {oneline(item['title'])}",
        "\n".join(f"- {name}: {oneline(value)}" for name, value in facts),
        *(section.strip() for section in sections),
        item["body"].strip(),
    ]
    return "\n\n".join(part for part in parts if part) + "\n"


class Twin(SingleObjectMixin, View):
    """GET /{kind}/{slug}.md."""

    serializer_class = None
    markdown = None

    def get(self, request, slug):
        document = self.get_serializer(self.get_object()).data
        return HttpResponse(self.markdown(document), content_type=MARKDOWN)

    def get_serializer(self, *args, **kwargs):
        """The API's serializer with the API views' context, named as DRF's views name it:
        `get_serializer(item).data` is the item's API document."""
        return self.serializer_class(*args, context={"base_url": Site.load().base_url}, **kwargs)


# The rendered HTML is not needed: on a large site it is most of what a row weighs.
class ProjectTwin(Batched, Twin):
    queryset = Project.objects.defer("body_html")
    serializer_class = ProjectDetailSerializer
    markdown = staticmethod(project_markdown)


class ArticleTwin(Batched, Twin):
    queryset = Article.objects.published().defer("body_html")  # a draft has no twin
    serializer_class = ArticleDetailSerializer
    markdown = staticmethod(article_markdown)


def page_markdown(page, base_url):
    """A standalone page's twin: its title, its address, its description and its body as written.
    A page has no API document (the API's are the spec's), so no JSON line."""
    facts = f"- Page: {base_url}{page.get_absolute_url()}"
    parts = [f"# {oneline(page.title)}", facts, page.description.strip(), page.body.strip()]
    return "\n\n".join(part for part in parts if part) + "\n"


class PageTwin(Batched, SingleObjectMixin, View):
    """GET /{slug}.md: a published standalone page's twin (a draft has none)."""

    queryset = Page.objects.published().defer("body_html")

    def get(self, request, slug):
        return HttpResponse(page_markdown(self.get_object(), Site.load().base_url), content_type=MARKDOWN)


def newest_first(projects, articles):
    """Merge two (date, x) streams, each newest first, into one: projects before articles on the
    same day. The one order of llms-full.txt and its parts."""
    return heapq.merge(projects, articles, key=lambda pair: pair[0], reverse=True)


# What a twin holds beyond its content file's bytes, besides its two addresses: its title line
# and the names of its facts. An estimate: the parts are cut by the files' sizes, known before
# any twin is made.
TWIN_OVERHEAD = 300


@Site.kept_while_pinned  # a build asks for them for each part, its plan and its checks
def llms_full_parts():
    """The parts of llms-full.txt: lists of (kind, slug), newest first across the parts, each
    about settings.LLMS_FULL_PART_BYTES at most by its items' file sizes (an item larger than
    that is a part alone); one part when everything fits. Every published item is in one part."""
    base = len(Site.load().base_url)
    streams = [
        [
            (str(date), (kind, slug, size))
            for slug, date, size in view.queryset.values_list("slug", "date", "source_size")
        ]
        for kind, view in (("projects", ProjectTwin), ("articles", ArticleTwin))
    ]
    parts, current, used = [], [], 0
    for _date, (kind, slug, size) in newest_first(*streams):
        estimate = size + 2 * base + TWIN_OVERHEAD
        if current and used + estimate > settings.LLMS_FULL_PART_BYTES:
            parts.append(current)
            current, used = [], 0
        current.append((kind, slug))
        used += estimate
    return [*parts, current]


def later_parts():
    """The numbers of the parts after the first (django-distill's distill_func)."""
    yield from (str(number) for number in range(2, len(llms_full_parts()) + 1))


def twins_of(items):
    """The twin of each (kind, slug) of `items`, in that order, serialized in runs."""
    views = {"projects": ProjectTwin, "articles": ArticleTwin}
    for start in range(0, len(items), RUN):
        run = items[start : start + RUN]
        made = {}
        for kind, view in views.items():
            rows = view.queryset.in_bulk([slug for k, slug in run if k == kind])
            documents = view().get_serializer(list(rows.values()), many=True).data
            made.update(((kind, doc["slug"]), view.markdown(doc)) for doc in documents)
        yield from (made[item] for item in run)


class LlmsFull(View):
    """/llms-full.txt: the site's summary (as in llms.txt), then every twin, newest first. A large
    site's is in parts of about LLMS_FULL_PART_BYTES each (llms_full_parts()): the first at
    /llms-full.txt names them all, the others are /llms-full-<n>.txt. A part is streamed a run
    of items at a time."""

    def get(self, request, part=None):
        parts = llms_full_parts()
        number = part or 1
        if part == 1 or number > len(parts):
            raise Http404("No such part")
        head = self.summary(request, parts) if number == 1 else self.part_head(request, number, parts)

        def chunks():
            yield head
            for twin in twins_of(parts[number - 1]):
                yield SEPARATOR + twin.encode()

        return StreamingHttpResponse(chunks(), content_type=TEXT)

    @staticmethod
    def part_head(request, number, parts):
        context = {"number": number, "count": len(parts)}
        return render_to_string("pages/llms_full_part.txt", context, request=request).encode()

    @staticmethod
    def summary(request, parts):
        text = render_to_string("pages/llms_summary.txt", request=request)
        if len(parts) > 1:
            context = {"count": len(parts), "part_bytes": f"{settings.LLMS_FULL_PART_BYTES:,}"}
            text += render_to_string("pages/llms_full_parts.txt", context, request=request)
        return text.encode()
