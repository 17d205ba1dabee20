"""/media/<path>: the content folder's media files and their resized variants (/media/_v/...),
served by the authoring server and frozen by the static export through the same view. Only what
the importer published is served: not a hidden file of media/, not a stale variant."""

from django.conf import settings
from django.http import Http404
from django.views import View
from django.views.static import serve as serve_file

from portfolio.content.media import FOLDER, VARIANTS_FOLDER, variant_files
from portfolio.content.models import MediaFile

VARIANTS_PREFIX = VARIANTS_FOLDER + "/"


class MediaView(View):
    def get(self, request, path):
        # Only what `path` needs: listing the variants costs a query and a hash per image.
        variants = variant_files() if path.startswith(VARIANTS_PREFIX) else {}
        published = MediaFile.objects.filter(path=path).values_list("path", flat=True)  # lazy
        found = self.source(path, variants, published)
        if found is None:
            raise Http404("No such media file")
        return serve_file(request, found.name, document_root=found.parent)

    @staticmethod
    def source(path, variants, published):
        """The file served at /media/<path>, or None. `variants`: variant_files(); `published`:
        the paths the importer published (any container: only read for a path not a variant)."""
        if path.startswith(VARIANTS_PREFIX):
            return variants.get(path[len(VARIANTS_PREFIX) :])
        return settings.CONTENT_DIR / FOLDER / path if path in published else None


def published_media():
    """Every path under /media/ the export writes (django-distill's distill_func)."""
    yield from MediaFile.objects.values_list("path", flat=True)
    yield from (VARIANTS_PREFIX + name for name in sorted(variant_files()))
