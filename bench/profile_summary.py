"""Sums py-spy's raw stacks (`py-spy record -f raw`, as `BENCH_DAEMON_PROFILE` writes them):
samples per thread, then per function (inclusive) and per line (where the samples stood).

    python -m bench.profile_summary FILE [--top 40] [--thread NAME]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path


def summary(path: Path, top: int = 40, thread: str | None = None) -> str:
    threads: Counter[str] = Counter()
    functions: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    total = 0
    for raw in path.read_text(encoding="utf-8").splitlines():
        stack, _, count = raw.rpartition(" ")
        if not count.isdigit():
            continue
        frames = stack.split(";")
        name = frames[0].split(": ", 1)[-1] if frames[0].startswith("thread") else "?"
        threads[name] += int(count)
        if thread is not None and thread not in name:
            continue
        total += int(count)
        for function in dict.fromkeys(f.split(" (")[0] for f in frames[1:]):
            functions[function] += int(count)
        lines[frames[-1]] += int(count)
    out = [f"{sum(threads.values())} samples; by thread:"]
    out += [f"  {n:6d}  {t}" for t, n in threads.most_common(15)]
    out.append(f"by function, inclusive ({total} samples):")
    out += [
        f"  {n:6d}  {100 * n / max(total, 1):5.1f} %  {f}" for f, n in functions.most_common(top)
    ]
    out.append("by line, where the samples stood:")
    out += [f"  {n:6d}  {100 * n / max(total, 1):5.1f} %  {f}" for f, n in lines.most_common(top)]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.profile_summary")
    p.add_argument("file", type=Path)
    p.add_argument("--top", type=int, default=40)
    p.add_argument("--thread", help="only threads whose name holds this")
    args = p.parse_args(argv)
    print(summary(args.file, args.top, args.thread))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
