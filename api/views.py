"""The six read-only operations of the API v1, plus a JSON 404 for anything else under /api/v1/.

Every view answers GET (and HEAD, OPTIONS); DRF answers any other method with a 405 and an Allow
header. There is no authentication, hence no CSRF check to turn those into 403s.
"""

from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpResponse
from rest_framework import generics
from rest_framework.exceptions import NotFound
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.response import Response
from rest_framework.views import APIView

from portfolio.batch import Batched
from portfolio.content.models import Article, Project, Site, Stack

from . import openapi
from . import serializers as s
from .openapi import Operation


def index_document(site):
    """The API index document (spec: "API index document"); item forms keep `{slug}` literally."""
    base = site.base_url
    api = f"{base}/api/v1"
    return {
        "name": f"{site.title} API",
        "version": "v1",
        "description": (
            "Read-only JSON about projects, published articles and the stack profile. No API keys "
            "and no authentication. The contact form is separate from this API and origin-restricted."
        ),
        "site": f"{base}/",
        "documentation": f"{base}/developers",
        "openapi": f"{base}/openapi.json",
        "llmsTxt": f"{base}/llms.txt",
        "pathNote": (
            "Every endpoint has an extensionless path and a .json path with the same document. The "
            ".json paths always work, on any static host and in local previews; the extensionless "
            "paths work only where the host rewrites them to the .json files, as production does."
        ),
        "endpoints": {
            "projects": {
                "list": f"{api}/projects",
                "listJson": f"{api}/projects.json",
                "item": f"{api}/projects/{{slug}}",
                "itemJson": f"{api}/projects/{{slug}}.json",
            },
            "articles": {
                "list": f"{api}/articles",
                "listJson": f"{api}/articles.json",
                "item": f"{api}/articles/{{slug}}",
                "itemJson": f"{api}/articles/{{slug}}.json",
                "note": "Published articles only: drafts are excluded and have no address.",
            },
            "stack": {"get": f"{api}/stack", "getJson": f"{api}/stack.json"},
            "index": {"get": api, "getJson": f"{api}.json"},
        },
        "humanPages": {
            "home": f"{base}/",
            "projects": f"{base}/projects",
            "articles": f"{base}/articles",
            "stack": f"{base}/stack",
            "contact": f"{base}/contact",
            "feed": f"{base}/feed.xml",
            "sitemap": f"{base}/sitemap-index.xml",
        },
        "contact": {
            "formPage": f"{base}/contact",
            "post": f"{base}/api/contact",
            "note": (
                "The handler of the site's own contact form: origin-restricted and rate-limited. "
                "It is not part of this API and not an integration endpoint."
            ),
        },
    }


class IgnoreAccept(BaseContentNegotiation):
    """There is one renderer (JSON): never a 406 for an odd Accept header."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class JSONOnly:
    """Answer like the static files do: JSON whatever the Accept header says, and OPTIONS with the
    Allow header alone (DRF's default body would describe parsers this API never uses)."""

    content_negotiation_class = IgnoreAccept

    def options(self, request, *args, **kwargs):
        return Response()


class ReadView(JSONOnly, generics.GenericAPIView):
    operation = None  # an Operation: what /openapi.json says of its GET

    # Absolute URIs are built from base_url (SITE_URL or site.yaml's url), never the request's
    # host: django-distill renders the static files through a fake request.
    def get_serializer_context(self):
        return {"base_url": Site.load().base_url}

    def respond(self, instance):
        return Response(self.get_serializer(instance).data)


class ApiIndexView(ReadView):
    """The entry point: every endpoint in both path forms, the human pages, and where the contact
    form lives (which is not part of this API)."""

    serializer_class = s.ApiIndexSerializer
    operation = Operation("getApiIndex", "index", "The API index document.")

    def get(self, request, *args, **kwargs):
        return self.respond(index_document(Site.load()))


class ListView(ReadView):
    """Every item of a collection, newest first, then by slug. Metadata only: no markdown body."""

    name = None  # the document's key of the list
    item_serializer = None

    def items(self):
        raise NotImplementedError

    def document(self, rows):
        # values(): no model instances, so the list stays cheap however many items there are.
        return {"count": len(rows), self.name: rows}

    def get(self, request, *args, **kwargs):
        return self.respond(self.document(list(self.items().values(*self.item_serializer.LIST_FIELDS))))


class ProjectListView(ListView):
    """Every project, newest first, then by slug. Metadata only: no markdown body."""

    serializer_class = s.ProjectListSerializer
    item_serializer = s.ProjectListItemSerializer
    name = "projects"
    operation = Operation("listProjects", "projects", "`count` and every project.")

    def items(self):
        return Project.objects.all()


class ArticleListView(ListView):
    """Every published article, newest first, then by slug. Metadata only: no markdown body.
    Drafts never appear."""

    serializer_class = s.ArticleListSerializer
    item_serializer = s.ArticleListItemSerializer
    name = "articles"
    operation = Operation("listArticles", "articles", "`count` and every published article.")

    def items(self):
        return Article.objects.published()


class DetailView(ReadView, generics.RetrieveAPIView):
    def get_object(self):
        # One stable body for every miss (DRF's default message names the model).
        try:
            return self.get_queryset().get(slug=self.kwargs["slug"])
        except ObjectDoesNotExist:
            raise NotFound() from None


class ProjectDetailView(Batched, DetailView):
    """One project, with its raw markdown `body` and its `caseStudy` (keys in the author's order)."""

    serializer_class = s.ProjectDetailSerializer
    operation = Operation("getProject", "projects", "The project.", slug_of="project")

    def get_queryset(self):
        return Project.objects.all()


class ArticleDetailView(Batched, DetailView):
    """One published article, with its raw markdown `body`. A draft has no address."""

    serializer_class = s.ArticleDetailSerializer
    operation = Operation("getArticle", "articles", "The article.", slug_of="article")

    def get_queryset(self):
        return Article.objects.published()


class StackView(ReadView):
    """The stack profile: models, daily drivers and current focus."""

    serializer_class = s.StackSerializer
    operation = Operation("getStack", "stack", "The stack profile.")

    def get(self, request, *args, **kwargs):
        return self.respond(Stack.objects.prefetch_related("models", "daily_drivers").get())


class NotFoundView(APIView):
    """Anything else under /api/v1/ (a slug the routes cannot match, a typo): the same JSON 404
    as an unknown slug, rather than the project's HTML page. The documented 404 is JSON, and a
    fuzzer's odd slugs (`A.b`, `%00`) would otherwise get an undocumented text/html answer."""

    schema = None  # not an operation

    def initial(self, request, *args, **kwargs):
        raise NotFound()


class OpenApiView(JSONOnly, APIView):
    """/openapi.json (it follows the code, and the site's name and address)."""

    schema = None  # describes the API; not part of it

    def get(self, request, *args, **kwargs):
        return HttpResponse(openapi.served(), content_type="application/json")
