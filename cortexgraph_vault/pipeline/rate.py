"""At most N writes per minute: a sliding window over the last 60 seconds."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

WINDOW = 60.0


class RateLimiter:
    def __init__(
        self,
        per_minute: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] = time.sleep,
        stopped: Callable[[], bool] = lambda: False,
    ) -> None:
        if per_minute < 1:
            raise ValueError("per_minute must be at least 1")
        self.per_minute = per_minute
        self.clock = clock
        self.sleep = sleep
        self.stopped = stopped
        self.recent: deque[float] = deque()

    def _forget_old(self, now: float) -> None:
        while self.recent and now - self.recent[0] >= WINDOW:
            self.recent.popleft()

    def acquire(self) -> bool:
        """Wait until one more write fits in the window and count it; False when a stop
        request ended the wait (nothing is counted then)."""
        now = self.clock()
        self._forget_old(now)
        while len(self.recent) >= self.per_minute:
            if self.stopped():
                return False
            pause = WINDOW - (now - self.recent[0])
            self.sleep(pause)
            now = self.clock()
            self._forget_old(now)
        self.recent.append(now)
        return True
