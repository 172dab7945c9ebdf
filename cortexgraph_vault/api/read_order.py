"""Which waiting read a read process answers next: the cheapest kind first, within a bound.

Under many clients the reads queue in the read process. Answered in arrival order, every read
waits as long as the queue is: a memory opened waits behind the searches, each costing ten
times more, that came before it. Answered cheapest first, by what each route has
cost lately, the quick reads pass the slow ones: the wait is the same in sum, but most
requests get their answer in a few milliseconds and the searches wait longer. So that no read
waits behind cheaper ones for ever, a read that has waited `AGE` seconds is answered before
any cheaper one, oldest first.

The bound is a trade (50 clients that never pause, RELIABILITY.md scenario 6): longer, more
answers come in milliseconds and the searches' slowest wait longer; `python -m
bench.daemon_load` shows both on the sample vault and at 10k notes.

Pure: the time is passed in, the cost of each answer is told after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")

AGE = 0.15  # seconds a read may wait while cheaper ones pass it
WEIGHT = 0.1  # of the latest answer in a route's running cost


@dataclass
class CheapestFirst(Generic[T]):
    """Reads waiting (`add`), the next to answer (`take`), what each route costs (`cost`)."""

    age: float = AGE
    waiting: list[tuple[float, str, T]] = field(default_factory=list)  # arrival order
    costs: dict[str, float] = field(default_factory=dict)  # route → running seconds

    def __len__(self) -> int:
        return len(self.waiting)

    def add(self, route: str, read: T, now: float) -> None:
        self.waiting.append((now, route, read))

    def take(self, now: float) -> tuple[str, T]:
        """The read to answer now; raises IndexError when none waits."""
        waiting = self.waiting
        if now - waiting[0][0] >= self.age:
            _, route, read = waiting.pop(0)
            return route, read
        costs = self.costs
        # a route not answered yet costs 0: tried at once, then known
        best = min(range(len(waiting)), key=lambda i: costs.get(waiting[i][1], 0.0))
        _, route, read = waiting.pop(best)
        return route, read

    def cost(self, route: str, seconds: float) -> None:
        """One answer of `route` took `seconds` of work."""
        old = self.costs.get(route)
        self.costs[route] = seconds if old is None else old + WEIGHT * (seconds - old)
