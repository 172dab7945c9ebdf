"""Effective configuration: CLI > environment > vault file > user file > defaults.

Environment names follow CortexGraph (`CORTEXGRAPH_*`) so existing setups keep working.
Files are TOML with the same names in lower case without the prefix
(`decay_model = "exponential"`). An invalid value is an error naming the variable, where it
came from and the allowed range.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import platformdirs

from cortexgraph_vault.core import wording
from cortexgraph_vault.core.decay import DECAY_MODELS, DecayConfig, DecayModelName
from cortexgraph_vault.core.recall_bar import THRESHOLD as RECALL_THRESHOLD
from cortexgraph_vault.core.rules import RuleConfig
from cortexgraph_vault.core.times import parse_time
from cortexgraph_vault.errors import ConfigError

if TYPE_CHECKING:
    from cortexgraph_vault.models import SettingRow

ENV_PREFIX = "CORTEXGRAPH_"
VAULT_CONFIG = Path(".cortexgraph") / "config.toml"
DEFAULT_PORT = 47613
C = TypeVar("C", DecayConfig, RuleConfig)


# what a setting holds once read: text, a number, a switch, a folder path, or unset
SettingValue = str | int | float | bool | Path | None


@dataclass(frozen=True)
class Setting:
    """How a setting is named, checked and explained: read from its Config field."""

    name: str
    kind: str  # "float" | "int" | "bool" | "str" | "choice" | "folder" | "path"
    default: object
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.name.upper()

    def allowed(self) -> str:
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "bool":
            return "true or false"
        if self.low is not None and self.high is not None:
            word = "an integer" if self.kind == "int" else "a number"
            return f"{word} from {self.low:g} to {self.high:g}"
        if self.kind == "folder":
            return "a folder name inside the vault (no '..', not absolute)"
        return "text"


def _setting(
    kind: str,
    default: object,
    help: str,
    lo: float | None = None,
    hi: float | None = None,
    choices: tuple[str, ...] = (),
) -> Any:
    """A Config field that is a setting: its default, and how it is checked and explained.
    Typed Any as `dataclasses.field` is: the field's annotation gives the type."""
    return field(default=default, metadata={_SETTING: (kind, help, lo, hi, choices)})


_SETTING = "cortexgraph_vault.setting"
AutoRecallMode = Literal["silent", "subtle", "interactive"]
AUTO_RECALL_MODES: tuple[AutoRecallMode, ...] = ("silent", "subtle", "interactive")


_SWITCHES = dict.fromkeys(("1", "true", "yes", "on"), True) | dict.fromkeys(
    ("0", "false", "no", "off"), False
)


def _parse(setting: Setting, raw: object, origin: str) -> Any:
    def bad() -> ConfigError:
        return ConfigError(
            f"{setting.env} ({origin}) = {raw!r} is invalid: must be {setting.allowed()}"
        )

    if raw is None:
        return None
    if setting.kind in ("float", "int"):
        # text (environment, command line) or a TOML number; a TOML list, table or date is not
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            raise bad()
        try:
            value: float = float(raw) if setting.kind == "float" else int(str(raw).strip())
        except (TypeError, ValueError):
            raise bad() from None
        if isinstance(value, float) and not math.isfinite(value):
            raise bad()
        if setting.low is not None and value < setting.low:
            raise bad()
        if setting.high is not None and value > setting.high:
            raise bad()
        return value
    if setting.kind == "bool":
        if isinstance(raw, bool):
            return raw
        found = _SWITCHES.get(str(raw).strip().lower())
        if found is None:
            raise bad()
        return found
    text = str(raw).strip()
    if setting.kind == "choice":
        if text not in setting.choices:
            raise bad()
        return text
    if setting.kind == "folder":
        parts = Path(text).parts
        if not text or Path(text).is_absolute() or ".." in parts or text.startswith("."):
            raise bad()
        return Path(text).as_posix().strip("/")
    if setting.kind == "path":
        return Path(text).expanduser()
    if setting.name == "now" and parse_time(text) is None:
        raise ConfigError(
            f"{setting.env} ({origin}) = {raw!r} is invalid: must be an ISO-8601 time"
        )
    return text


def _user_dir(kind: Literal["config", "cache", "data"]) -> Path:
    override = os.environ.get(f"CORTEXGRAPH_{kind.upper()}_DIR")
    found = getattr(platformdirs, f"user_{kind}_dir")("cortexgraph-vault")
    return Path(override or found)


def user_config_dir() -> Path:
    return _user_dir("config")


def user_config_file() -> Path:
    return user_config_dir() / "config.toml"


def config_files(config: Config) -> list[tuple[str, Path]]:
    """The files settings are read from, whether they exist yet or not: the user's, and the
    vault's once a vault is known."""
    files = [("user", user_config_file())]
    if config.vault:
        files.append(("vault", Path(str(config.vault)).expanduser() / VAULT_CONFIG))
    return files


def user_cache_dir() -> Path:
    return _user_dir("cache")


def user_data_dir() -> Path:
    """Where `serve --demo` keeps its vault."""
    return _user_dir("data")


def _read_toml(path: Path) -> dict[str, object]:
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    unknown = sorted(set(data) - set(BY_NAME))
    if unknown:
        raise ConfigError(wording.unknown_settings(str(path), unknown))
    return data


@dataclass(frozen=True)
class Config:
    """The effective settings, one typed field each (its annotation is the type `load_config`
    parses the value to), and where each value came from."""

    # fmt: off
    vault: Path | None = _setting("path", None, "the Obsidian vault folder")
    stm_folder: str = _setting("folder", "_stm", "folder of short-term memories")
    ltm_folder: str = _setting("folder", "memories", "folder promoted memories move to")
    archive_folder: str = _setting("folder", "_archive", "folder archived memories move to")
    decay_model: DecayModelName = _setting("choice", "power_law", "decay model", choices=DECAY_MODELS)
    decay_beta: float = _setting("float", 0.6, "use-count exponent β", 0.0, 2.0)
    decay_lambda: float = _setting("float", math.log(2) / (3 * 86400), "exponential λ per second", 1e-9, 1e-2)
    pl_alpha: float = _setting("float", 1.1, "power-law α", 0.01, 10.0)
    pl_halflife_days: float = _setting("float", 3.0, "power-law half-life in days", 0.01, 3650.0)
    tc_lambda_fast: float = _setting("float", 1.603e-5, "two-component fast λ per second", 1e-9, 1e-2)
    tc_lambda_slow: float = _setting("float", 1.147e-6, "two-component slow λ per second", 1e-10, 1e-2)
    tc_weight_fast: float = _setting("float", 0.7, "two-component weight of the fast part", 0.0, 1.0)
    forget_threshold: float = _setting("float", 0.05, "score below which a memory is forgotten", 0.0, 1.0)
    promote_threshold: float = _setting("float", 0.65, "score from which a reused memory is promoted", 0.0, 10.0)
    promote_use_count: int = _setting("int", 5, "uses within the window that promote", 1, 1000)
    promote_time_window: float = _setting("float", 14.0, "window in days for the use-count rule", 0.0, 3650.0)
    promote_use_days: int = _setting("int", 2, "distinct days of use (24-hour days counted from the save) promotion needs", 1, 365)
    promote_spaced_days: int = _setting("int", 5, "distinct days of use that promote at any age", 2, 3650)
    review_danger_zone_min: float = _setting("float", 0.15, "lower edge of the review danger zone", 0.0, 1.0)
    review_danger_zone_max: float = _setting("float", 0.35, "upper edge of the review danger zone", 0.0, 1.0)
    review_blend_ratio: float = _setting("float", 0.3, "share of review candidates blended into search", 0.0, 1.0)
    cross_domain_threshold: float = _setting("float", 0.3, "tag overlap (Jaccard) below which an observed use is cross-domain", 0.0, 1.0)
    auto_reinforce: bool = _setting("bool", True, "reinforce memories when they are used")
    search_stm_weight: float = _setting("float", 1.0, "unified search weight of short-term memories", 0.0, 2.0)
    search_ltm_weight: float = _setting("float", 0.7, "unified search weight of long-term notes", 0.0, 2.0)
    semantic_search: bool = _setting("bool", True, "search by meaning too (the bundled offline word-vector model)")
    meaning_search: bool = _setting("bool", True, "search by meaning with the bundled sentence encoder once every note has its vector (made in the background), the word vectors meanwhile")
    meaning_weight: float = _setting("float", 0.5, "share of relevance from the sentence encoder's similarity (of a memory or another short note)", 0.0, 1.0)
    meaning_long_note_weight: float = _setting("float", 0.8, "share of relevance from the sentence encoder's similarity for a long memory", 0.0, 1.0)
    meaning_long_page_weight: float = _setting("float", 0.7, "share of relevance from the sentence encoder's similarity for a long note that is not a memory (a page: the encoder reads its title and opening, and what answers a question is often further down)", 0.0, 1.0)
    meaning_min_cosine: float = _setting("float", 0.25, "least sentence-encoder similarity for a note found by meaning alone", 0.0, 1.0)
    meaning_query_words: int = _setting("int", 2, "a query of at most this many words, none of them filler and each in some note as it is, is ranked by its words and the word vectors; the sentence encoder reads every other query (0: every query)", 0, 100)
    result_max_chars: int = _setting("int", 40_000, "characters (compact JSON) one search or open answer holds at most; next_cursor continues", 2_000, 1_000_000)
    search_prior_floor: float = _setting("float", 0.9, "least share of its relevance an unused, old memory keeps in search", 0.0, 1.0)
    search_vector_weight: float = _setting("float", 0.3, "share of relevance from vector similarity (of a memory or another short note)", 0.0, 1.0)
    search_long_note_vector_weight: float = _setting("float", 0.5, "share of relevance from vector similarity for a long note (a page; between short and long, in proportion)", 0.0, 1.0)
    search_context_weight: float = _setting("float", 0.3, "share of a better match's lead a memory gains from a neighbour saved just before or after it", 0.0, 1.0)
    search_reply_weight: float = _setting("float", 0.9, "a memory saved right after a matching question (a reply in a conversation) ranks at least at this share of the question's relevance", 0.0, 1.5)
    search_label_weight: float = _setting("float", 0.4, "share of relevance a memory gains when the question names its label (the name before a colon that opens it: who said it, what it is about)", 0.0, 2.0)
    search_episode_discount: float = _setting("float", 0.0, "share of its rank score a hit loses for each better hit saved in the same episode (keeps one conversation from filling the results)", 0.0, 1.0)
    cluster_link_threshold: float = _setting("float", 0.83, "similarity that links memories in a cluster", 0.0, 1.0)
    cluster_max_size: int = _setting("int", 12, "largest cluster", 2, 1000)
    consolidate_rate_limit: int = _setting("int", 100, "consolidation writes per minute (merges, promotions, links)", 1, 100_000)
    consolidate_interval_hours: float = _setting("float", 0.0, "hours between scheduled consolidation runs (0: off)", 0.0, 8760.0)
    relation_min_confidence: float = _setting("float", 0.5, "least confidence for a discovered relation", 0.0, 1.0)
    semantic_hi: float = _setting("float", 0.88, "similarity from which memories are duplicates", 0.0, 1.0)
    auto_supersede: bool = _setting("bool", True, "a save records the one memory it surely replaces (same subject and slot, a new value, a change cue) without asking; the rest it lists under may_supersede")
    auto_recall_enabled: bool = _setting("bool", True, "recall memories automatically in conversation")
    auto_recall_mode: AutoRecallMode = _setting("choice", "silent", "auto-recall mode", choices=AUTO_RECALL_MODES)
    auto_recall_relevance_threshold: float = _setting("float", RECALL_THRESHOLD, "least relevance for a memory to count as used by a message (auto-recall reinforces it; the recall analysis says to search)", 0.0, 1.0)
    auto_recall_max_results: int = _setting("int", 3, "memories recalled per message", 1, 10)
    auto_recall_min_interval: float = _setting("float", 300.0, "seconds before a memory is auto-reinforced again", 0.0, 86400.0)
    git_auto_commit: bool = _setting("bool", True, "gather touches and observes into periodic snapshot commits")
    git_commit_interval: float = _setting("float", 3600.0, "seconds between snapshot commits", 10.0, 604800.0)
    git_commit_writes: bool = _setting("bool", True, "commit saves, updates, deletes, promotions and restores")
    git_auto_init: bool = _setting("bool", False, "make the vault a git repository when it is not one")
    git_lock_wait: float = _setting("float", 10.0, "seconds to wait for another git process", 0.0, 600.0)
    device_name: str | None = _setting("str", None, "this device's name in memory notes and commits, for sync (default: the host name)")
    max_note_bytes: int = _setting("int", 5_000_000, "notes larger than this are indexed only in part", 1024, 1_000_000_000)
    port: int = _setting("int", DEFAULT_PORT, "daemon port on 127.0.0.1", 1, 65535)
    read_processes: int = _setting("int", 1, "processes beside the daemon that answer its searches and listings (0: the daemon answers them itself)", 0, 8)
    progress_min_items: int = _setting("int", 200, "a CLI step over at least this many notes draws a progress bar on a terminal", 1, 1_000_000_000)
    daemon_idle_seconds: float = _setting("float", 15.0, "seconds a daemon connection may stay silent, no request of it being answered, before it is closed", 0.1, 3600.0)
    daemon_max_connections: int = _setting("int", 512, "connections the daemon holds at once (fewer if the open-file limit is lower); the longest idle one is closed to make room", 8, 100_000)
    now: str | None = _setting("str", None, "fixed clock (ISO-8601) for previews and tests")
    # fmt: on
    origins: Mapping[str, str] = field(default_factory=dict)

    @property
    def values(self) -> dict[str, SettingValue]:
        """Every setting by name, in the order of SETTINGS."""
        return {s.name: getattr(self, s.name) for s in SETTINGS}

    @property
    def decay(self) -> DecayConfig:
        return _core_config(
            self, DecayConfig, model="decay_model", beta="decay_beta", exp_lambda="decay_lambda"
        )

    @property
    def rules(self) -> RuleConfig:
        return _core_config(
            self,
            RuleConfig,
            promote_time_window_days="promote_time_window",
            danger_zone_min="review_danger_zone_min",
            danger_zone_max="review_danger_zone_max",
        )

    @property
    def fixed_now(self) -> datetime | None:
        return parse_time(self.now) if self.now else None

    def with_values(self, **overrides: Any) -> Config:
        """A copy with these settings changed (an unknown name is a TypeError)."""
        origins = {**self.origins, **dict.fromkeys(overrides, "code")}
        return replace(self, **overrides, origins=origins)


def _core_config(config: Config, cls: type[C], **setting_of: str) -> C:
    """The core's settings dataclass `cls`, each field from the setting of its name (or the
    one `setting_of` names)."""
    return cls(**{f.name: getattr(config, setting_of.get(f.name, f.name)) for f in fields(cls)})


SETTINGS: tuple[Setting, ...] = tuple(
    Setting(f.name, f.metadata[_SETTING][0], f.default, *f.metadata[_SETTING][1:])
    for f in fields(Config)
    if _SETTING in f.metadata
)
BY_NAME = {s.name: s for s in SETTINGS}


def vault_root(config: Config) -> Path:
    """The vault folder, resolved; a clear error when none is given or it does not exist."""
    if config.vault is None:
        raise ConfigError(
            "no vault given: pass --vault PATH or set CORTEXGRAPH_VAULT to your Obsidian vault"
        )
    root = Path(config.vault).expanduser()
    if not root.is_dir():
        raise ConfigError(f"{root}: the vault folder does not exist")
    return Path(os.path.realpath(root))


def load_config(
    cli: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    *,
    user_file: Path | None = None,
) -> Config:
    """Merge every source; the vault file is found once the vault itself is known."""
    env = os.environ if env is None else env
    cli = {k: v for k, v in (cli or {}).items() if v is not None}
    user_path = user_file or user_config_file()
    user_values = _read_toml(user_path)
    layers: list[tuple[str, Mapping[str, Any]]] = [
        ("default", {s.name: s.default for s in SETTINGS}),
        (str(user_path), user_values),
    ]
    env_values = {s.name: env[s.env] for s in SETTINGS if s.env in env and env[s.env] != ""}
    cli_values = {k: v for k, v in cli.items() if k in BY_NAME}
    vault_raw = cli_values.get("vault") or env_values.get("vault") or user_values.get("vault")
    if vault_raw:
        vault_path = Path(str(vault_raw)).expanduser() / VAULT_CONFIG
        layers.append((str(vault_path), _read_toml(vault_path)))
    layers.append(("environment", env_values))
    layers.append(("command line", cli_values))

    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for origin, layer in layers:
        for name, raw in layer.items():
            setting = BY_NAME[name]
            values[name] = raw if origin == "default" else _parse(setting, raw, origin)
            origins[name] = origin
    _check_together(values)
    return Config(**values, origins=origins)


def _check_together(values: Mapping[str, Any]) -> None:
    if values["review_danger_zone_min"] >= values["review_danger_zone_max"]:
        raise ConfigError(
            "CORTEXGRAPH_REVIEW_DANGER_ZONE_MIN must be below CORTEXGRAPH_REVIEW_DANGER_ZONE_MAX"
        )
    if len({values["stm_folder"], values["ltm_folder"], values["archive_folder"]}) != 3:
        raise ConfigError(
            "CORTEXGRAPH_STM_FOLDER, CORTEXGRAPH_LTM_FOLDER and CORTEXGRAPH_ARCHIVE_FOLDER must differ"
        )


def describe(config: Config) -> list[SettingRow]:
    """Rows for `cortexgraph-vault config`: name, env variable, value, where it came from."""
    from cortexgraph_vault.models import SettingRow

    values = config.values
    return [
        SettingRow(
            name=s.name,
            env=s.env,
            value=str(value) if isinstance(value := values[s.name], Path) else value,
            origin=config.origins.get(s.name, "default"),
            help=s.help,
        )
        for s in SETTINGS
    ]
