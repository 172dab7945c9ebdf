"""`python -m bench.daemon_costs`: each kind of request alone against a real daemon."""

from __future__ import annotations

from pathlib import Path

from bench.daemon_costs import KINDS, daemon_costs
from tests.api.conftest import git_sample_vault


def test_every_kind_is_answered_and_costed(tmp_path: Path) -> None:
    costs = daemon_costs(git_sample_vault(tmp_path / "vault"), requests=100, connections=2)
    assert list(costs) == list(KINDS)
    for kind, row in costs.items():
        assert row["per_s"] > 0, kind
        assert row["daemon_ms"] >= 0 and row["read_processes_ms"] >= 0, kind
    # (CPU times come in ticks of 10 ms: the comparisons are of kinds far apart)
    # searches are answered by the read process, /health by the daemon alone
    assert costs["search"]["read_processes_ms"] > costs["health"]["read_processes_ms"]
    # a touch writes a note: far more of the daemon than /health
    assert costs["touch"]["daemon_ms"] > costs["health"]["daemon_ms"]
