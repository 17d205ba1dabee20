"""The hook by which a detail view accepts its item from a batch: the one way the build hands a
view anything (portfolio/export/render.py).

A view class that mixes in Batched declares that its get_object() is a pure lookup in its own
queryset by the URL's one argument (no other request state, no side effect, no write), and, where
it has get_serializer(), that `get_serializer(item).data` depends on the item alone. The build
may then load a run of its URLs' items in one query of the view's queryset, make their documents
with one `many=True` serializer of the view's, and answer each GET's get_object() and
get_serializer(item) with its own item and document (carried in the request's environ under
BATCHED) instead of querying again. Outside a build nothing is carried: the view queries as any
Django or DRF view. A view without the mixin is always rendered one query a GET. Keep a Batched
view's get_object() a lookup: anything else it did would be skipped in a build.
"""

from typing import NamedTuple

# The environ key of a GET's (item, document or None).
BATCHED = "portfolio.batched"


class Serialized(NamedTuple):
    """A serializer whose document is made: what get_serializer(item) answers in a batch."""

    data: dict


class Batched:
    """Mix in before the view class: `class ProjectPage(Batched, DetailView)`."""

    @classmethod
    def serializes(cls):
        """Whether the view makes its item's document with get_serializer() (DRF's hook)."""
        return any("get_serializer" in vars(base) for base in cls.__mro__ if base is not Batched)

    def batched(self):
        request = getattr(self, "request", None)  # a view made only for its serializer has none
        return request.META.get(BATCHED) if request is not None else None

    def get_object(self, *args, **kwargs):
        found = self.batched()
        return found[0] if found else super().get_object(*args, **kwargs)

    def get_serializer(self, *args, **kwargs):
        found = self.batched()
        if found and found[1] is not None and len(args) == 1 and args[0] is found[0] and not kwargs:
            return Serialized(found[1])
        return super().get_serializer(*args, **kwargs)
