"""What a memory that replaces others takes from them (pure).

A correction must not fade before the error it corrects: the slot both memories fill keeps
its weight. The new memory takes over the standing of those it supersedes — their uses add
to its own (each was a use of the same slot), it keeps the most days of use, the greater
strength and the later last use — so it is promoted whenever the old one would have been
and outlives it in gc. A pair recorded once is never counted again (the caller skips it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from cortexgraph_vault.core.rules import DecayFields


def taken_over(new: DecayFields, olds: Sequence[DecayFields]) -> DecayFields:
    """`new`'s decay fields once it has taken over the standing of `olds`; its save time
    stays its own. Days of use never exceed uses (as the note model reads them)."""
    if not olds:
        return new
    use_count = new.use_count + sum(o.use_count for o in olds)
    use_days = min(use_count, max(new.use_days, *(o.use_days for o in olds)))
    return replace(
        new,
        use_count=use_count,
        use_days=use_days,
        strength=max(new.strength, *(o.strength for o in olds)),
        last_used=max(new.last_used, *(o.last_used for o in olds)),
    )


def standing_changes(before: DecayFields, after: DecayFields) -> dict[str, object]:
    """The frontmatter fields `after` changes from `before` (only those, so `git diff` shows
    exactly what the takeover did)."""
    fields = ("use_count", "use_days", "strength", "last_used")
    out = {f: getattr(after, f) for f in fields if getattr(after, f) != getattr(before, f)}
    if "strength" in out:
        out["strength"] = round(after.strength, 4)
    return out


__all__ = ["standing_changes", "taken_over"]
