"""The README's table of decay values, generated from the models themselves.

`python -m cortexgraph_vault.core.decay_table` prints it; a test checks the README holds
exactly this table, so the documentation cannot drift from the code.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from cortexgraph_vault.core.decay import (
    DAY,
    DECAY_MODELS,
    DecayConfig,
    decay_factor,
    seconds_until_score,
)

DAYS = (0.5, 1, 3, 7, 14, 30)


def decay_table_markdown(cfg: DecayConfig | None = None) -> str:
    base = cfg or DecayConfig()
    head = "| model | " + " | ".join(f"{d:g} d" for d in DAYS) + " | 1.0 → 0.05 |"
    rule = "|---|" + "---:|" * (len(DAYS) + 1)
    rows = [head, rule]
    t0 = datetime(2000, 1, 1, tzinfo=UTC)
    for name in DECAY_MODELS:
        model = replace(base, model=name)
        values = " | ".join(f"{decay_factor(d * DAY, model):.4f}" for d in DAYS)
        until = seconds_until_score(
            0.05, use_count=1, last_used=t0, strength=1.0, now=t0, cfg=model
        )
        rows.append(f"| {name} | {values} | {until / DAY:.2f} d |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(decay_table_markdown())
