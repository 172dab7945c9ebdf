"""Configuration: precedence CLI > env > vault file > user file > defaults; clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.config import describe, load_config
from cortexgraph_vault.errors import ConfigError


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_precedence_of_every_source(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    user = write(
        tmp_path / "user.toml",
        'decay_model = "exponential"\npl_alpha = 2.0\nforget_threshold = 0.1\nstm_folder = "inbox"\n',
    )
    write(vault / ".cortexgraph" / "config.toml", "pl_alpha = 3.0\nforget_threshold = 0.2\n")
    env = {
        "CORTEXGRAPH_VAULT": str(vault),
        "CORTEXGRAPH_FORGET_THRESHOLD": "0.3",
        "CORTEXGRAPH_PROMOTE_USE_COUNT": "7",
    }
    cfg = load_config({"promote_use_count": "9"}, env, user_file=user)
    assert cfg.decay_model == "exponential" and cfg.origins["decay_model"] == str(user)
    assert cfg.pl_alpha == 3.0 and cfg.origins["pl_alpha"].endswith("config.toml")
    assert cfg.forget_threshold == 0.3 and cfg.origins["forget_threshold"] == "environment"
    assert cfg.promote_use_count == 9 and cfg.origins["promote_use_count"] == "command line"
    assert cfg.stm_folder == "inbox"
    assert cfg.decay.model == "exponential" and cfg.rules.forget_threshold == 0.3
    rows = {r["name"]: r for r in describe(cfg)}
    assert rows["forget_threshold"]["env"] == "CORTEXGRAPH_FORGET_THRESHOLD"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"CORTEXGRAPH_DECAY_MODEL": "linear"},
            "CORTEXGRAPH_DECAY_MODEL (environment) = 'linear' is invalid: must be one of exponential, power_law, two_component",
        ),
        ({"CORTEXGRAPH_FORGET_THRESHOLD": "1.5"}, "must be a number from 0 to 1"),
        ({"CORTEXGRAPH_PROMOTE_USE_COUNT": "2.5"}, "must be an integer from 1 to 1000"),
        ({"CORTEXGRAPH_AUTO_REINFORCE": "maybe"}, "must be true or false"),
        ({"CORTEXGRAPH_STM_FOLDER": "../outside"}, "a folder name inside the vault"),
        ({"CORTEXGRAPH_TC_WEIGHT_FAST": "nan"}, "CORTEXGRAPH_TC_WEIGHT_FAST"),
        (
            {"CORTEXGRAPH_REVIEW_DANGER_ZONE_MIN": "0.5"},
            "must be below CORTEXGRAPH_REVIEW_DANGER_ZONE_MAX",
        ),
        ({"CORTEXGRAPH_NOW": "yesterday"}, "ISO-8601"),
        (
            {"CORTEXGRAPH_CROSS_DOMAIN_THRESHOLD": "1.5"},
            "CORTEXGRAPH_CROSS_DOMAIN_THRESHOLD (environment) = '1.5' is invalid: must be a number from 0 to 1",
        ),
    ],
)
def test_invalid_values_name_the_variable_and_the_range(
    env: dict[str, str], message: str, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError) as info:
        load_config({}, env, user_file=tmp_path / "none.toml")
    assert message in str(info.value)


def test_unknown_key_or_bad_toml_in_a_file_is_named(tmp_path: Path) -> None:
    bad = write(tmp_path / "user.toml", "decay_modle = 'power_law'\n")
    with pytest.raises(ConfigError, match=r"unknown setting.*decay_modle"):
        load_config({}, {}, user_file=bad)
    broken = write(tmp_path / "broken.toml", "x = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config({}, {}, user_file=broken)


def test_defaults_are_cortexgraphs(tmp_path: Path) -> None:
    cfg = load_config({}, {}, user_file=tmp_path / "none.toml")
    assert (cfg.decay_model, cfg.pl_alpha, cfg.pl_halflife_days, cfg.decay_beta) == (
        "power_law",
        1.1,
        3.0,
        0.6,
    )
    assert (cfg.forget_threshold, cfg.promote_threshold, cfg.promote_use_count) == (0.05, 0.65, 5)
    assert (cfg.stm_folder, cfg.ltm_folder, cfg.archive_folder) == ("_stm", "memories", "_archive")


def test_cross_domain_threshold_from_the_environment(tmp_path: Path) -> None:
    default = load_config({}, {}, user_file=tmp_path / "none.toml")
    assert default.cross_domain_threshold == 0.3 == default.rules.cross_domain_threshold
    env = {"CORTEXGRAPH_CROSS_DOMAIN_THRESHOLD": "0.5"}
    cfg = load_config({}, env, user_file=tmp_path / "none.toml")
    assert cfg.rules.cross_domain_threshold == 0.5
    assert cfg.origins["cross_domain_threshold"] == "environment"
    rows = {r["name"]: r for r in describe(cfg)}
    assert rows["cross_domain_threshold"]["env"] == "CORTEXGRAPH_CROSS_DOMAIN_THRESHOLD"
