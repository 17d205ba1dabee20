"""How a large render shares its work between the build's process and its workers."""

from pages.twins import ArticleTwin
from portfolio.export.plan import Target
from portfolio.export.render import Work, made_with_documents


def take_all(work, pattern):
    """Take chunks alternately from the front and the back (`pattern`, repeated) until none is
    left: [(front?, chunk)]."""
    taken, turn = [], 0
    while work:
        front = pattern[turn % len(pattern)]
        taken.append((front, work.take(front)))
        turn += 1
    return taken


def flat_of(chunks):
    return [target for chunk in chunks for target in chunk]


def test_every_target_is_taken_once_from_either_end():
    chunks = [[f"g{i}"] for i in range(3)] + [
        [f"d{i}" for i in range(j, j + 500)] for j in range(0, 5000, 500)
    ]
    taken = take_all(Work(chunks, 2), [True, False, False])
    flat = flat_of(chunk for _front, chunk in taken)
    assert sorted(flat) == sorted(flat_of(chunks))
    assert len(flat) == len(set(flat))
    # The front is taken in order from the start, the back in reverse order from the end.
    front = flat_of(chunk for is_front, chunk in taken if is_front)
    assert front == flat_of(chunks)[: len(front)]


def test_chunks_are_whole_until_the_ends_meet_then_taken_in_pieces():
    chunks = [[i * 500 + k for k in range(500)] for i in range(10)]
    taken = take_all(Work(chunks, 2), [True, False])
    sizes = [len(chunk) for _front, chunk in taken]
    # While four chunks or more are left (two a process), whole ones go.
    assert sizes[:6] == [500] * 6
    # Then a quarter at a time, down to pieces of 25: no process is left with a whole chunk.
    assert sizes[6] == 125
    assert max(sizes[6:]) == 125
    assert sizes[-4:] == [min(size, 25) for size in sizes[-4:]]
    assert sum(sizes) == 5000


def test_a_twin_is_made_with_its_document_when_both_are_rendered():
    """A markdown twin is made from its item's API document as the JSON file is rendered; a
    twin whose document is not rendered (kept from the previous build) renders on its own."""
    json_a, twin_a, twin_b, page_a = (
        Target(
            "/api/v1/articles/a.json",
            "api/v1/articles/a.json",
            (200,),
            "articles:a",
            "api:article-json",
            ("a",),
        ),
        Target("/articles/a.md", "articles/a.md", (200,), "articles:a", "pages:article-md", ("a",)),
        Target("/articles/b.md", "articles/b.md", (200,), "articles:b", "pages:article-md", ("b",)),
        Target("/articles/a", "articles/a.html", (200,), "articles:a", "pages:article", ("a",)),
    )
    made, rest = made_with_documents([json_a, twin_a, twin_b, page_a])
    assert made == {"/api/v1/articles/a.json": (twin_a, ArticleTwin.from_document)}
    assert rest == [json_a, twin_b, page_a]
    assert made_with_documents([twin_a, page_a]) == ({}, [twin_a, page_a])
