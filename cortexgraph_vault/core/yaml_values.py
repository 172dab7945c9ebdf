"""One-line YAML for the values we write into frontmatter, guaranteed to read back unchanged.

Hand-built YAML (`source: chat: 2025`) is how frontmatter gets broken, so every value we write
goes through here. Strings stay plain when that is unambiguous and readable; anything else is
double-quoted with JSON-style escapes, on one line, with non-ASCII letters left as they are.

What YAML cannot hold at all is refused with ValueError rather than written wrongly: NaN and
infinities (we would not read them back as numbers people meant) and strings with lone UTF-16
surrogates (not Unicode characters; libyaml rejects even their escapes).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import date, datetime

import yaml

from cortexgraph_vault.core.times import format_time, parse_time

_STR_TAG = "tag:yaml.org,2002:str"
# The implicit resolvers are the exact rules by which a plain scalar becomes a bool, null, int,
# float, timestamp, merge key or `=`; asking them beats keeping our own list of "yes"/"0x1F"/...
_RESOLVER = yaml.resolver.Resolver()

# Characters that may not start a plain scalar (YAML indicators), and those that end one or
# split it inside a flow collection (PyYAML also ends a plain scalar at `?` there).
_PLAIN_FORBIDDEN_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@`")
_FLOW_INDICATORS = frozenset(",[]{}?")

# Inside double quotes: the quote and backslash, C0/C1 controls, DEL, the characters YAML
# treats as line breaks, the BOM and the non-characters YAML's reader refuses.
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]')
_SHORT_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}
_SURROGATE = re.compile("[\ud800-\udfff]")


def format_yaml_value(value: object) -> str:
    """One-line YAML for `value` as it would follow `key: ` in a block mapping.

    Supports str, int, float (finite), bool, None, datetime (written via format_time, so whole
    seconds in UTC), date, lists/tuples and dicts of these (flow style).
    """
    return _format(value, flow=False)


def format_yaml_key(key: str) -> str:
    """A mapping key as it would be written before `: `."""
    return _format_str(_require_str_key(key), flow=False)


def as_loaded(value: object) -> object:
    """The value a YAML loader gives back for what format_yaml_value writes for `value`.

    Only times change on the way (UTC, whole seconds) and tuples become lists; this lets a
    writer check its own output without special cases.
    """
    if isinstance(value, datetime):
        return parse_time(format_time(value))
    if isinstance(value, list | tuple):
        return [as_loaded(item) for item in value]
    if isinstance(value, Mapping):
        return {key: as_loaded(item) for key, item in value.items()}
    return value


def _format(value: object, *, flow: bool) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return _format_float(value)
    if isinstance(value, datetime):
        return format_time(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str):
        return _format_str(value, flow=flow)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_format(item, flow=True) for item in value) + "]"
    if isinstance(value, Mapping):
        pairs = (
            f"{_format_str(_require_str_key(key), flow=True)}: {_format(item, flow=True)}"
            for key, item in value.items()
        )
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(f"cannot write a {type(value).__name__} into frontmatter")


def _require_str_key(key: object) -> str:
    if not isinstance(key, str):
        raise TypeError(f"frontmatter keys must be strings, not {type(key).__name__}")
    return key


def _format_float(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError(f"cannot write {value!r} into frontmatter: only finite numbers")
    text = repr(float(value))
    # YAML 1.1 (PyYAML) reads `1e+16` as a string: its float form needs a dot in the mantissa.
    mantissa, marker, exponent = text.partition("e")
    if marker and "." not in mantissa:
        text = f"{mantissa}.0e{exponent}"
    return text


def _format_str(text: str, *, flow: bool) -> str:
    if _SURROGATE.search(text):
        raise ValueError("cannot write a string with lone surrogates into frontmatter")
    if _plain_is_safe(text, flow=flow):
        return text
    return '"' + _NEEDS_ESCAPE.sub(_escape, text) + '"'


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _SHORT_ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _plain_is_safe(text: str, *, flow: bool) -> bool:
    if not text or text[0] in _PLAIN_FORBIDDEN_FIRST or text != text.strip():
        return False
    # isprintable() rejects tabs, controls, line breaks and odd spaces: all fine in YAML in
    # places, but quoting them keeps the rule short and the result unambiguous to the eye.
    if not text.isprintable():
        return False
    if ": " in text or text.endswith(":") or " #" in text:
        return False
    if flow and not _FLOW_INDICATORS.isdisjoint(text):
        return False
    tag: str = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))
    return tag == _STR_TAG
