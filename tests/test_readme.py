"""The README's decay table is what the code computes."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from cortexgraph_vault.core.decay import (
    DAY,
    DECAY_MODELS,
    DecayConfig,
    decay_factor,
    seconds_until_score,
)

README = Path(__file__).resolve().parents[1] / "README.md"
DAYS = (0.5, 1, 3, 7, 14, 30)


def decay_table_markdown() -> str:
    head = "| model | " + " | ".join(f"{d:g} d" for d in DAYS) + " | 1.0 → 0.05 |"
    rows = [head, "|---|" + "---:|" * (len(DAYS) + 1)]
    t0 = datetime(2000, 1, 1, tzinfo=UTC)
    for name in DECAY_MODELS:
        model = replace(DecayConfig(), model=name)
        values = " | ".join(f"{decay_factor(d * DAY, model):.4f}" for d in DAYS)
        until = seconds_until_score(
            0.05, use_count=1, last_used=t0, strength=1.0, now=t0, cfg=model
        )
        rows.append(f"| {name} | {values} | {until / DAY:.2f} d |")
    return "\n".join(rows)


def test_readme_decay_table_matches_the_code() -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- decay-table:start -->\n(.*?)\n<!-- decay-table:end -->", text, re.S)
    assert match, "README lacks the decay-table markers"
    table = decay_table_markdown()
    assert match.group(1) == table, f"README decay table is stale; between the markers put\n{table}"


def test_readme_quick_start_commands_exist() -> None:
    text = README.read_text(encoding="utf-8")
    for script in ("scripts/demo", "scripts/test"):
        assert f"./{script}" in text
        assert (README.parent / script).is_file()


def test_readme_promotion_table_names_real_settings_with_their_defaults() -> None:
    from cortexgraph_vault.config import BY_NAME, ENV_PREFIX

    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^  \| [^|]+ \| +([\d.]+) \| `(CORTEXGRAPH_\w+)` \|$", text, re.M)
    assert len(rows) == 5, rows
    for default, variable in rows:
        setting = BY_NAME[variable.removeprefix(ENV_PREFIX).lower()]
        assert float(default) == float(setting.default), variable


def test_readme_links_and_paths_stay_inside_the_repository() -> None:
    text = README.read_text(encoding="utf-8")
    repo = README.parent.resolve()
    targets = re.findall(r"\]\(([^)#\s]+)", text) + re.findall(r"`(\.\.?/[^`\s]+)`", text)
    assert targets, "the README links to its docs"
    for target in targets:
        if re.match(r"\w+://", target):
            continue
        path = (repo / target).resolve()
        assert path.is_relative_to(repo), f"README points outside the repository: {target}"
        assert path.exists(), f"README points to a missing file: {target}"


def test_config_shows_the_user_config_file_before_it_exists(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    env = {k: "" for k in ("CORTEXGRAPH_VAULT",)}
    shown = cli("config", env=env)
    assert shown.code == 0, shown.err
    user_file = Path(os.environ["CORTEXGRAPH_CONFIG_DIR"]) / "config.toml"
    assert not user_file.exists()
    assert f"user config file: {user_file} (not created yet)" in shown.out
    assert "CORTEXGRAPH_PROMOTE_USE_DAYS" in shown.out
    as_json = cli("--json", "config", vault=tmp_path).json()
    assert as_json["files"] == [  # type: ignore[index]
        {"scope": "user", "path": str(user_file), "exists": False},
        {"scope": "vault", "path": str(tmp_path / ".cortexgraph" / "config.toml"), "exists": False},
    ]


def test_readme_lists_every_exit_code() -> None:
    from cortexgraph_vault import errors
    from cortexgraph_vault.daemon import instance

    text = README.read_text(encoding="utf-8")
    listed = {int(code) for code in re.findall(r"^\| (\d+) \| ", text, re.M)}
    codes = {1, 120, 130}  # unexpected errors, a failed flush, Ctrl-C (cli/main.py)
    for module in (errors, instance):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, errors.VaultError):
                codes.add(value.exit_code)
    assert codes <= listed, f"exit codes the README does not list: {sorted(codes - listed)}"
    assert 8 in listed and errors.SecretRefused.exit_code == 8
