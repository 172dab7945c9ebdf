"""Does a text look like it holds a credential? The vault is committed to git, where a
secret stays forever, so the service refuses such text, in any field, unless told otherwise.

Text is looked at as it would be read: invisible format characters (zero-width spaces and
joiners, word joiners, soft hyphens, direction marks) are dropped first, so a token split by
them is still the token it shows. Spans and redaction work on that visible text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from cortexgraph_vault.core.english import phrases

# Token formats: the prefix is public (it names the issuer), the rest is the secret.
# Each with the literal text it cannot match without (a cheap `in` test skips the regex).
_TOKENS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (kind, re.compile(pattern), hints)
    for kind, pattern, hints in (
        ("a private key block", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----", ("-----BEGIN",)),
        (
            "an AWS access key id",
            r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])",
            ("AKIA", "ASIA"),
        ),
        (
            "a GitHub token",
            r"(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})",
            ("hp_", "ho_", "hu_", "hs_", "hr_", "github_pat_"),
        ),
        ("a Slack token", r"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}", ("xox",)),
        (
            "an OpenAI/Anthropic style API key",
            r"(?<![A-Za-z0-9])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}",
            ("sk-",),
        ),
        ("a Google API key", r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}", ("AIza",)),
        (
            "a Stripe key",
            r"(?<![A-Za-z0-9])[rs]k_(?:live|test)_[0-9A-Za-z]{20,}",
            ("k_live_", "k_test_"),
        ),
        (
            "a JSON web token",
            r"(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
            ("eyJ",),
        ),
        (
            "a URL with a password",
            r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}://[^/\s:@]{1,200}:[^/\s@]{3,200}@",
            ("://",),
        ),
    )
)
_LABEL_HINTS = ("pass", "pwd", "secret", "key", "token", "credential")

# A value worth hiding: 6 to 200 visible characters, at least one a digit or a symbol (so
# "password: see the wiki" is no password). Bounded so no pattern rescans a long run.
_VALUE = r"[\"']?(?P<value>(?=[^\s\"']{0,200}?[0-9!@#$%^&*_\-+=/])[^\s\"']{6,200})"
# `name is value` / `name: value` with the name in words ("api key is ...", "secret: ...").
_LABELLED = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(?:password|passwd|pwd|passphrase|secret|api[ -]?key|access[ -]?key|"
    r"private[ -]?key|access[ -]?token|auth[ -]?token|token|credentials?)"
    r"\s*(?:[=:]|\bis\b)\s*" + _VALUE
)
# `NAME = value` where the name, run together with `_`, `-` or `.`, says what it holds:
# aws_secret_access_key, API_KEY, client-secret, db.password. The name is matched from the
# start of its run only (the look-behind), so a long run of word characters costs one try.
# The value is only looked at (a look-ahead), not consumed: in `note: api_key=…` the value
# of `note` is where the next name starts.
_ASSIGNED = re.compile(
    r"(?<![A-Za-z0-9_.-])(?P<key>[A-Za-z0-9_.-]{1,100})\s*[=:]\s*(?=" + _VALUE + ")"
)
_SECRET_NAMES = phrases(
    "password, passwd, pwd, passphrase, secret, apikey, accesskey, privatekey, token, credential"
)


def _names_a_secret(key: str) -> bool:
    bare = key.lower().replace("_", "").replace("-", "").replace(".", "")
    return any(name in bare for name in _SECRET_NAMES)


@dataclass(frozen=True)
class SecretFinding:
    kind: str
    excerpt: str  # masked, so the refusal message does not repeat the secret
    start: int = 0  # where the secret is in the visible text (see `visible`)
    end: int = 0


@dataclass(frozen=True)
class FieldFinding:
    field: str  # "title", "tags[2]", "meta.pin"
    finding: SecretFinding


def visible(text: str) -> str:
    """The text without invisible format characters (Unicode category Cf)."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def _spans(text: str) -> Iterator[tuple[str, int, int]]:
    low = text.lower()
    for kind, pattern, hints in _TOKENS:
        if any(h in text for h in hints):
            for m in pattern.finditer(text):
                yield kind, *m.span()
    if any(h in low for h in _LABEL_HINTS):
        for m in _LABELLED.finditer(text):
            yield "a password or secret value", *m.span("value")
    if "=" in text or ":" in text:
        for m in _ASSIGNED.finditer(text):
            if _names_a_secret(m.group("key")):
                yield "a password or secret value", *m.span("value")
    # Its phrase patterns are slow to compile: a process that never checks a text (a search,
    # a listing) does not pay for them.
    from cortexgraph_vault.core.credentials import credential_spans

    yield from credential_spans(text, low)


_TOKEN_KINDS = frozenset(kind for kind, _, _ in _TOKENS)


def _excerpt(kind: str, raw: str) -> str:
    # A token's first characters name its issuer (ghp_, AKIA); any other span is the secret
    # itself (a password, a PIN, a number), of which nothing is shown.
    return raw[:4] + "…" if kind in _TOKEN_KINDS and len(raw) > 4 else "…"


def find_secrets(text: str) -> list[SecretFinding]:
    """One finding per kind of secret, the first place it occurs."""
    shown = visible(text)
    first: dict[str, SecretFinding] = {}
    for kind, start, end in sorted(_spans(shown), key=lambda s: s[1]):
        if kind not in first:
            first[kind] = SecretFinding(kind, _excerpt(kind, shown[start:end]), start, end)
    return list(first.values())


def redact(text: str, mark: str = "[redacted]") -> str:
    """The visible text with every secret replaced by `mark` (for names and commit messages)."""
    shown = visible(text)
    spans = sorted((s, e) for _, s, e in _spans(shown))
    out: list[str] = []
    at = 0
    for start, end in spans:
        if end <= at:
            continue
        out.append(shown[at : max(at, start)] + mark)
        at = end
    return "".join(out) + shown[at:]


def find_secrets_in_fields(fields: Mapping[str, object]) -> list[FieldFinding]:
    """Every field and nested value (lists, mappings, their keys). A mapping entry is also read
    as `key: value`, so `{"pin": 4921}` is the PIN it says it is."""
    found: list[FieldFinding] = []
    for name, value in fields.items():
        for where, text in _texts(name, value):
            # A key may itself be the secret: a path is named redacted.
            found.extend(FieldFinding(redact(where), f) for f in find_secrets(text))
    return found


def _texts(where: str, value: object) -> Iterator[tuple[str, str]]:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            inner = f"{where}.{key}"
            yield inner, str(key)
            if isinstance(item, Mapping | list | tuple | set | frozenset):
                yield from _texts(inner, item)
            elif item is not None and not isinstance(item, bool):
                # The value read with its key: whatever the value holds alone, this holds too.
                yield inner, f"{key}: {item}"
    elif isinstance(value, list | tuple | set | frozenset):
        for i, item in enumerate(value):
            yield from _texts(f"{where}[{i}]", item)
    else:
        yield where, str(value)
