"""Page N of a listing: where it starts and ends, and the pagination block that says so."""

from __future__ import annotations

from cortexgraph_vault.handlers.browse.paging import paginate


def test_no_page_asked_gives_the_first_items_and_no_block() -> None:
    assert paginate(total=25, page=None, page_size=10) == (0, 10, None)


def test_a_middle_and_the_last_page() -> None:
    start, end, info = paginate(total=25, page=2, page_size=10)
    assert (start, end) == (10, 20)
    assert info is not None
    assert (info.total_pages, info.has_more, info.has_previous) == (3, True, True)
    start, end, info = paginate(total=25, page=3, page_size=10)
    assert (start, end) == (20, 30) and info is not None
    assert (info.has_more, info.has_previous, info.total_count) == (False, True, 25)


def test_an_empty_listing_still_has_one_page() -> None:
    _, _, info = paginate(total=0, page=1, page_size=10)
    assert info is not None and info.total_pages == 1 and not info.has_more
