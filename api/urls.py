"""Routes of the read API v1 and /openapi.json, spelled in full (the app is included at "").

Two named routes per endpoint (DRF's format_suffix_patterns would reverse to `/x.json/` and hide
them from django-distill). The `.json` forms are what the static export writes; the extensionless
forms are served there by the host's rewrite rules, so only the `.json` forms are distilled.
"""

from django.urls import path, re_path

from portfolio.content.slugs import project_slugs, published_article_slugs
from portfolio.shows import LISTS, SITE, Shows, distill_path

from . import catalog, views

app_name = "api"


index = views.ApiIndexView.as_view()
projects = views.ProjectListView.as_view()
project = views.ProjectDetailView.as_view()
articles = views.ArticleListView.as_view()
article = views.ArticleDetailView.as_view()
stack = views.StackView.as_view()

urlpatterns = [
    distill_path("api/v1.json", index, name="index-json", distill_file="api/v1.json", shows=LISTS),
    path("api/v1", index, name="index"),
    distill_path(
        "api/v1/projects.json",
        projects,
        name="projects-json",
        distill_file="api/v1/projects.json",
        shows=Shows("projects"),
    ),
    path("api/v1/projects", projects, name="projects"),
    distill_path(
        "api/v1/projects/<slug:slug>.json",
        project,
        name="project-json",
        distill_func=project_slugs,
        distill_file="api/v1/projects/{}.json",
        shows=Shows("projects", "{}"),
    ),
    path("api/v1/projects/<slug:slug>", project, name="project"),
    distill_path(
        "api/v1/articles.json",
        articles,
        name="articles-json",
        distill_file="api/v1/articles.json",
        shows=Shows("articles"),
    ),
    path("api/v1/articles", articles, name="articles"),
    distill_path(
        "api/v1/articles/<slug:slug>.json",
        article,
        name="article-json",
        distill_func=published_article_slugs,
        distill_file="api/v1/articles/{}.json",
        shows=Shows("articles", "{}"),
    ),
    path("api/v1/articles/<slug:slug>", article, name="article"),
    distill_path(
        "api/v1/stack.json", stack, name="stack-json", distill_file="api/v1/stack.json", shows=Shows("stack")
    ),
    path("api/v1/stack", stack, name="stack"),
    distill_path(
        "openapi.json", views.OpenApiView.as_view(), name="openapi", distill_file="openapi.json", shows=SITE
    ),
    distill_path(
        ".well-known/api-catalog",
        catalog.api_catalog,
        name="api-catalog",
        distill_file=".well-known/api-catalog",
        shows=SITE,
    ),
    # The JSON 404, frozen as api/v1/404.html: Cloudflare Pages answers a missing file with the
    # nearest 404.html up the tree, so unknown API paths get the API's error body, not a page.
    distill_path(
        "api/v1/404",
        views.NotFoundView.as_view(),
        name="not-found-file",
        distill_file="api/v1/404.html",
        distill_status_codes=(404,),
        shows=SITE,
    ),
    # Last: whatever the routes above did not match under /api/v1/ gets the API's JSON 404.
    re_path(r"^api/v1/", views.NotFoundView.as_view(), name="not-found"),
]
