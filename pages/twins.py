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

from django.http import HttpResponse, StreamingHttpResponse
from django.template.loader import render_to_string
from django.views import View
from django.views.generic.detail import SingleObjectMixin

from api.serializers import ArticleDetailSerializer, ProjectDetailSerializer
from portfolio.content.models import Article, Project, Site

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
        item = self.get_object()
        return HttpResponse(self.markdown(self.documents([item])[0]), content_type=MARKDOWN)

    @classmethod
    def documents(cls, items):
        context = {"base_url": Site.load().base_url}
        return cls.serializer_class(items, many=True, context=context).data


# The rendered HTML is not needed: on a large site it is most of what a row weighs.
class ProjectTwin(Twin):
    queryset = Project.objects.defer("body_html")
    serializer_class = ProjectDetailSerializer
    markdown = staticmethod(project_markdown)


class ArticleTwin(Twin):
    queryset = Article.objects.published().defer("body_html")  # a draft has no twin
    serializer_class = ArticleDetailSerializer
    markdown = staticmethod(article_markdown)


def twins(view_class):
    """(date, twin) of every item of `view_class`, newest first, serialized in runs."""
    run = []
    for item in view_class.queryset.iterator(chunk_size=RUN):
        run.append(item)
        if len(run) == RUN:
            yield from ((doc["date"], view_class.markdown(doc)) for doc in view_class.documents(run))
            run = []
    yield from ((doc["date"], view_class.markdown(doc)) for doc in view_class.documents(run))


def newest_first(projects, articles):
    """Merge two (date, x) streams, each newest first, into one: projects before articles on the
    same day. The one order of llms-full.txt, whether its twins are rendered or read."""
    return heapq.merge(projects, articles, key=lambda pair: pair[0], reverse=True)


class LlmsFull(View):
    """/llms-full.txt: the site's summary (as in llms.txt), then every twin, newest first. At
    10,000 articles the file is tens of megabytes: it is streamed a run of items at a time, and
    never held as text besides its bytes."""

    def get(self, request):
        merged = newest_first(twins(ProjectTwin), twins(ArticleTwin))

        def chunks():
            yield self.summary(request)
            for _date, twin in merged:
                yield SEPARATOR + twin.encode()

        return StreamingHttpResponse(chunks(), content_type=TEXT)

    @staticmethod
    def summary(request):
        return render_to_string("pages/llms_summary.txt", request=request).encode()
