"""While the content folder has problems, the authoring server answers with their list.

autosync.ContentSyncHandler (the runserver wrapper) puts the importer's ContentInvalid in the
request's environ; nothing else sets it, so tests' clients and the build never see this. Pages
get an HTML list (readable on a phone; django-browser-reload adds its script, so the page comes
back by itself once the file is fixed), API addresses the same list as JSON; both status 500.
"""

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

PROBLEM_KEY = "portfolio.content_problem"
# Static files and the live-reload event stream keep working, so the error page can reload.
PASS_THROUGH = ("/static/", "/__reload__/")


def is_api_address(path):
    return path.startswith("/api/") or path.endswith(".json")


class ContentErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        problem = request.META.get(PROBLEM_KEY)
        if problem is None or request.path_info.startswith(PASS_THROUGH):
            return self.get_response(request)
        errors = [str(error) for error in problem.errors]
        summary = f"The content folder has {problems(len(errors))}; nothing was imported."
        if is_api_address(request.path_info):
            return JsonResponse({"detail": summary, "errors": errors}, status=500)
        context = {"errors": errors, "summary": summary, "content_dir": settings.CONTENT_DIR,
                   "reloads": settings.BROWSER_RELOAD}  # fmt: skip
        # In the site's frame (base.html: header, footer, stylesheet): the last valid content is
        # still in the database, so the header's links and the site's title are there to show.
        page = render_to_string("content/problems.html", context, request=request)
        return HttpResponse(page, status=500)


def problems(count):
    return f"{count} problem" if count == 1 else f"{count} problems"
