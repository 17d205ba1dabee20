"""Site.pinned(): while a build renders, the content cannot change, so the site identity and what
kept_while_pinned() functions compute from the whole content are read once; outside a build
(the authoring server imports between requests) every call computes afresh."""

from portfolio.content.models import Article, Site


def test_a_kept_function_is_computed_once_while_pinned_and_on_every_call_otherwise(imported):
    calls = []

    @Site.kept_while_pinned
    def published():
        calls.append(1)
        return Article.objects.published().count()

    count = published()
    assert published() == count and len(calls) == 2
    with Site.pinned():
        assert published() == published() == count
        assert len(calls) == 3
    Article.objects.published().first().delete()
    assert published() == count - 1 and len(calls) == 4
    with Site.pinned():  # a new build computes it again
        assert published() == count - 1 and len(calls) == 5
