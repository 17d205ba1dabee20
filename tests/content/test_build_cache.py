"""Site.build_cache(): while a build renders, the content cannot change, so the site identity and
what build_cached functions compute from the whole content are read once; outside a build (the
authoring server imports between requests) every call computes afresh."""

from portfolio.content.models import Article, Site


def test_a_kept_function_is_computed_once_in_the_build_cache_and_on_every_call_otherwise(imported):
    calls = []

    @Site.build_cached
    def published():
        calls.append(1)
        return Article.objects.published().count()

    count = published()
    assert published() == count and len(calls) == 2
    with Site.build_cache():
        assert published() == published() == count
        assert len(calls) == 3
    Article.objects.published().first().delete()
    assert published() == count - 1 and len(calls) == 4
    with Site.build_cache():  # a new build computes it again
        assert published() == count - 1 and len(calls) == 5
