"""A page of memories is that slice of every memory in the asked order, ties broken by path."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from tests.builders import service_for


@pytest.mark.parametrize("sort", ["score", "age", "last_used"])
def test_pages_are_slices_of_the_whole_order(git_vault: Path, sort: str) -> None:
    s = service_for(git_vault)
    s.touch("Uses Neovim")
    whole = s.list_memories(status="all", sort=sort, page_size=200).memories
    assert len(whole) >= 20
    if sort == "score":  # shown rounded: equal shown scores may be in either order
        key = [-m.score for m in whole]  # type: ignore[operator]
    else:
        field = "created" if sort == "age" else "last_used"
        key = [(-datetime.fromisoformat(getattr(m, field)).timestamp(), m.path) for m in whole]
    assert key == sorted(key)
    paged = [
        m.path
        for page in (1, 2, 3, 4, 5)
        for m in s.list_memories(status="all", sort=sort, page=page, page_size=5).memories
    ]
    assert paged == [m.path for m in whole][:25]
