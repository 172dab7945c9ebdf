"""Configuration: precedence CLI > env > vault file > user file > defaults; clear errors."""

from __future__ import annotations

from pathlib import Path
from types import UnionType
from typing import Literal, get_args, get_origin, get_type_hints

import pytest

from cortexgraph_vault.config import (
    SETTINGS,
    Config,
    Setting,
    describe,
    load_config,
)
from cortexgraph_vault.errors import ConfigError
from cortexgraph_vault.models import SettingRow


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
    rows = {r.name: r for r in describe(cfg)}
    assert rows["forget_threshold"].env == "CORTEXGRAPH_FORGET_THRESHOLD"


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
    rows = {r.name: r for r in describe(cfg)}
    assert rows["cross_domain_threshold"].env == "CORTEXGRAPH_CROSS_DOMAIN_THRESHOLD"


def _has_type(value: object, annotation: object) -> bool:
    """isinstance for the annotations Config uses: classes, `X | None` and Literal."""
    if get_origin(annotation) is Literal:
        return value in get_args(annotation)
    if isinstance(annotation, UnionType):
        return any(_has_type(value, each) for each in get_args(annotation))
    if annotation is type(None):
        return value is None
    assert isinstance(annotation, type), annotation
    if annotation is int and isinstance(value, bool):
        return False  # a bool is an int to isinstance, never to a setting
    return isinstance(value, annotation)


KIND_TYPES: dict[str, object] = {
    "float": float,
    "int": int,
    "bool": bool,
    "folder": str,
    "path": Path | None,
    "str": str | None,
}


def test_every_setting_is_a_typed_field_whose_default_has_its_type() -> None:
    hints = get_type_hints(Config)
    assert [s.name for s in SETTINGS] == [n for n in hints if n != "origins"]
    for s in SETTINGS:
        annotation = hints[s.name]
        if s.kind == "choice":
            assert get_origin(annotation) is Literal, s.name
            assert get_args(annotation) == s.choices, s.name
        else:
            assert annotation == KIND_TYPES[s.kind], s.name
        assert _has_type(s.default, annotation), (s.name, s.default)


def _text_for(s: Setting, tmp_path: Path) -> str:
    """A valid value of the setting, written as the environment would give it."""
    if s.kind == "choice":
        return s.choices[-1]
    if s.kind == "bool":
        return "off" if s.default else "on"
    if s.kind == "folder":
        return f"{s.name}-here"
    if s.kind == "path":
        return str(tmp_path / "vault")
    if s.kind == "str":
        return "2024-05-01T12:00:00Z"
    if s.name == "review_danger_zone_max":
        return "0.9"  # stays above the minimum, set to its low end below
    return str(s.low if s.low is not None else s.default)


def test_values_from_text_are_parsed_to_their_fields_type(tmp_path: Path) -> None:
    env = {s.env: _text_for(s, tmp_path) for s in SETTINGS}
    cfg = load_config({}, env, user_file=tmp_path / "none.toml")
    hints = get_type_hints(Config)
    for s in SETTINGS:
        value = getattr(cfg, s.name)
        assert _has_type(value, hints[s.name]), (s.name, value)
        assert cfg.origins[s.name] == "environment"
    assert cfg.vault == tmp_path / "vault"
    assert cfg.auto_recall_mode == "interactive" and cfg.auto_reinforce is False
    assert cfg.promote_use_count == 1 and cfg.fixed_now is not None
    rows = {r.name: r for r in describe(cfg)}
    assert rows["vault"].value == str(tmp_path / "vault")
    assert rows["promote_use_count"] == SettingRow(
        name="promote_use_count",
        env="CORTEXGRAPH_PROMOTE_USE_COUNT",
        value=1,
        origin="environment",
        help="uses within the window that promote",
    )


def test_a_number_setting_given_a_toml_list_is_named_with_its_file(tmp_path: Path) -> None:
    user = write(tmp_path / "user.toml", "pl_alpha = [2.0]\n")
    with pytest.raises(ConfigError) as info:
        load_config({}, {}, user_file=user)
    assert str(info.value) == (
        f"CORTEXGRAPH_PL_ALPHA ({user}) = [2.0] is invalid: must be a number from 0.01 to 10"
    )


def test_with_values_changes_settings_and_says_code_set_them(tmp_path: Path) -> None:
    cfg = load_config({}, {}, user_file=tmp_path / "none.toml")
    changed = cfg.with_values(vault=tmp_path, git_commit_writes=False)
    assert (changed.vault, changed.git_commit_writes) == (tmp_path, False)
    assert changed.origins["vault"] == "code" and changed.origins["port"] == "default"
    assert cfg.vault is None and cfg.git_commit_writes is True  # the original is unchanged
    with pytest.raises(TypeError, match="git_comit_writes"):
        cfg.with_values(git_comit_writes=False)
