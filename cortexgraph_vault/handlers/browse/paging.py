"""Pages of a listing: where page N starts and ends, and the `pagination` block that says so."""

from __future__ import annotations

import math

from cortexgraph_vault.models import Pagination


def paginate(total: int, page: int | None, page_size: int) -> tuple[int, int, Pagination | None]:
    """Where page `page` of `total` items starts and ends, and what to say of it (None when
    no page was asked for: the first `page_size` items). `page` is 1 or more, as every
    request that takes one says."""
    if page is None:
        return 0, page_size, None
    pages = max(1, math.ceil(total / page_size))
    start = (page - 1) * page_size
    info = Pagination(
        page=page,
        page_size=page_size,
        total_count=total,
        total_pages=pages,
        has_more=page < pages,
        has_previous=page > 1,
    )
    return start, start + page_size, info
