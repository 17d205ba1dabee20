"""The markdown forms of the pages that list things: the home page, the project and article lists
and their later pages, /stack, /tags, each tag's pages and each series' page. Each is its page's
address plus `.md` (`/index.md` for `/`), built as a file like the items' twins (pages/twins.py), and answered
instead of the page to an Accept that prefers markdown (pages/negotiation.py).

Each shows what its page shows, from the page's own view and context: a `# ` title, then the
items as markdown links to their pages, a line of facts each.
"""

from django.shortcuts import render

from . import views
from .twins import MARKDOWN


def _markdown(request, template, context):
    return render(request, f"pages/markdown/{template}", context, content_type=MARKDOWN)


def home(request):
    return _markdown(request, "home.md", views.home_context())


def stack(request):
    return _markdown(request, "stack.md", views.stack_context())


def tag_index(request):
    return _markdown(request, "tags.md", views.tag_index_context())


class ProjectList(views.ProjectList):
    template_name = "pages/markdown/projects.md"
    content_type = MARKDOWN


class ArticleList(views.ArticleList):
    template_name = "pages/markdown/articles.md"
    content_type = MARKDOWN


class TagPage(views.TagPage):
    template_name = "pages/markdown/tag.md"
    content_type = MARKDOWN


class SeriesPage(views.SeriesPage):
    template_name = "pages/markdown/series.md"
    content_type = MARKDOWN
