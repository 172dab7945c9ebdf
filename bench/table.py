"""The one table `python -m bench` prints: a row per figure of issue 16 (and the index's own),
a column per vault size, then the target and the floor where one exists.

Floors: a bare `python -c pass` spawn under every whole-process figure, and reading (and
parsing, on one core) every note of the vault under the cold index.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Row = dict[str, Any]


def _f(fmt: str, *keys: str) -> Callable[[Row], str]:
    def cell(row: Row) -> str:
        if any(row.get(k) is None for k in keys):
            return "–"
        return fmt.format(*(row[k] for k in keys))

    return cell


# (what, cell of one size, target, the floor row under it)
ROWS: list[tuple[str, Callable[[Row], str], str, str | None]] = [
    ("MCP stdio: spawn → initialize s", _f("{:.2f}", "mcp_init_s"), "≤ 0.4", "spawn"),
    ("MCP stdio: spawn → first search_memory s", _f("{:.2f}", "mcp_first_search_s"), "≤ 0.5 (10k)",
     "spawn"),
    ("tools/list bytes", _f("{:,}", "tools_list_bytes"), "≤ 32,000", None),
    ("--version s", _f("{:.2f}", "version_s"), "≤ 0.15", "spawn"),
    ("`search` / `show` / `stats` process s (warm)",
     _f("{:.2f} / {:.2f} / {:.2f}", "search_cli_s", "show_cli_s", "stats_cli_s"),
     "≤ 0.35 (10k)", "spawn"),
    ("cold index s: by words / with vectors (cpu s)",
     _f("{:.2f} / {:.2f} ({:.1f})", "cold_s", "cold_vectors_s", "cold_cpu_s"),
     "≤ 2.0 (10k), ≤ 20 (100k)", "read + parse"),
    ("cold `stats` process s", _f("{:.2f}", "stats_cold_cli_s"), "≤ 2.5 (10k)",
     "spawn"),
    ("daemon, 50 clients: p50 / p99 ms, req/s",
     _f("{:.0f} / {:.0f}, {:.0f}", "load_p50_ms", "load_p99_ms", "load_rps"),
     "p50 ≤ 60, p99 ≤ 300 (10k)", None),
    # reads are answered cheapest first (api/read_order.py): opens, then lists, then searches
    ("  of which opens / lists / searches p50 ms",
     _f("{0[0]} / {1[0]} / {2[0]}", "load_open_p50_p99_ms", "load_list_p50_p99_ms",
        "load_search_p50_p99_ms"), "", None),
    ("  of which searches p50 / p99 ms", _f("{0[0]} / {0[1]}", "load_search_p50_p99_ms"),
     "", None),
    ("  of which touches p50 / p99 ms", _f("{0[0]} / {0[1]}", "load_touch_p50_p99_ms"), "", None),
    # a row ranked by the word vectors (the encoder's vectors not all made) is cheaper, not faster
    ("  searches ranked by the encoder / by word vectors",
     _f("{0[by_encoder]} / {0[by_word_vectors]}", "load_searches_ranked"), "", None),
    # what bounds req/s on 2 cores: the daemon's CPU with its git and read processes', of which
    # the read processes'; the clients' own CPU shares the same cores
    ("  daemon CPU ms (read processes) / clients' / switches per answer",
     _f("{:.2f} ({:.2f}) / {:.2f} / {:.0f}", "load_daemon_cpu_ms_per_request",
        "load_read_processes_cpu_ms_per_request", "load_client_cpu_ms_per_request",
        "load_switches_per_request"), "", None),
    ("  of which saves p50 / p99 ms", _f("{0[0]} / {0[1]}", "load_save_p50_p99_ms"), "", None),
    ("a read beside a 1,000-memory gc: p50 / max ms",
     _f("{:.0f} / {:.0f}", "gc_read_p50_ms", "gc_read_max_ms"), "≤ 100 (10k)", None),
    ("gc s (memories forgotten)", _f("{:.2f} ({:,.0f})", "gc_s", "gc_n"), "≤ 5 (1,000)", None),
    ("search_unified in process p50 / p99 ms",
     _f("{:.1f} / {:.1f}", "search_p50_ms", "search_p99_ms"), "p99 ≤ 100 (100k)", None),
    ("peak RSS MB: cold / warm (each at its end)",
     _f("{:.0f} / {:.0f} ({:.0f} / {:.0f})", "rss_cold_mb", "rss_warm_mb", "rss_cold_end_mb",
        "rss_warm_end_mb"),
     "≤ 500 (100k)", None),
    ("warm index s", _f("{:.2f}", "warm_s"), "≤ 1 (10k)", None),
    ("edit → search p50 / p95 ms", _f("{:.0f} / {:.0f}", "edit_p50_ms", "edit_p95_ms"), "p95 ≤ 300",
     None),
    ("save p50 ms (with git commit)", _f("{:.1f} ({:.0f})", "save_p50_ms", "save_git_p50_ms"),
     "≤ 10", None),
    ("touch p50 ms", _f("{:.1f}", "touch_p50_ms"), "≤ 10", None),
    ("floor «spawn»: a bare `python -c pass` s", _f("{:.2f}", "floor_s"), "", None),
    ("floor «read + parse»: read / read and parse every note s",
     _f("{:.2f} / {:.2f}", "read_floor_s", "parse_floor_s"), "", None),
    ("load average at the cold start", _f("{:.1f}", "load"), "(2 cores)", None),
]  # fmt: skip
SAMPLE_TARGET = "p50 ≤ 40, p99 ≤ 200, ≥ 800 req/s"


def table(rows: list[Row], sample: Row | None = None) -> str:
    head = ["", *(f"{row['notes']:,.0f} notes" for row in rows), "target", "floor"]
    cells = [head]
    for what, cell, target, floor in ROWS:
        cells.append([what, *(cell(row) for row in rows), target, floor or ""])
    if sample is not None:
        daemon = _f("{:.0f} / {:.0f}, {:.0f} ({:.2f} ms CPU)", "load_p50_ms", "load_p99_ms",
                    "load_rps", "load_daemon_cpu_ms_per_request")(sample)  # fmt: skip
        cells.append(["daemon, 50 clients, sample vault", *([daemon] + [""] * (len(rows) - 1)),
                      SAMPLE_TARGET, ""])  # fmt: skip
    widths = [max(len(r[i]) for r in cells) for i in range(len(head))]
    lines = [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
        for r in cells
    ]  # fmt: skip
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
