"""`python -m bench.profile_summary` sums py-spy's raw stacks per thread, function and line."""

from __future__ import annotations

from pathlib import Path

from bench.profile_summary import summary

RAW = """\
thread (0x1): MainThread;run (a.py:1);handle (b.py:10);encode (c.py:5) 6
thread (0x1): MainThread;run (a.py:1);handle (b.py:12) 2
thread (0x2): cgv-changes;work (d.py:3);touch (e.py:7) 4
not a stack line
"""


def test_samples_are_summed_per_thread_function_and_line(tmp_path: Path) -> None:
    raw = tmp_path / "raw.txt"
    raw.write_text(RAW, encoding="utf-8")
    text = summary(raw)
    assert "12 samples" in text
    assert "       8  MainThread" in text and "       4  cgv-changes" in text
    assert "       8   66.7 %  handle" in text  # inclusive: both of its stacks
    assert "       6   50.0 %  encode (c.py:5)" in text  # by line


def test_one_thread_alone(tmp_path: Path) -> None:
    raw = tmp_path / "raw.txt"
    raw.write_text(RAW, encoding="utf-8")
    text = summary(raw, thread="cgv-changes")
    assert "inclusive (4 samples)" in text
    assert "handle" not in text.split("by function")[1]
