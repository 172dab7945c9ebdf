"""Does a text look like it holds a credential? The vault is committed to git, where a
secret stays forever, so the service refuses such content unless told otherwise."""

from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a private key block", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----")),
    ("an AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    (
        "a GitHub token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"),
    ),
    ("a Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("an OpenAI/Anthropic style API key", re.compile(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("a Stripe key", re.compile(r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{20,}\b")),
    (
        "a JSON web token",
        re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    ),
    (
        "a password or secret value",
        re.compile(
            r"(?i)\b(?:password|passwd|pwd|passphrase|secret|api[_ -]?key|access[_ -]?token|auth[_ -]?token)"
            r"\b\s*(?:is|=|:)\s*[\"']?(?=[^\s\"']*[0-9!@#$%^&*_\-+=])[^\s\"']{6,}"
        ),
    ),
    ("a URL with a password", re.compile(r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]{3,}@")),
)


@dataclass(frozen=True)
class SecretFinding:
    kind: str
    excerpt: str  # masked, so the refusal message does not repeat the secret


def find_secrets(text: str) -> list[SecretFinding]:
    findings = []
    for kind, pattern in _PATTERNS:
        match = pattern.search(text)
        if match:
            raw = match.group(0)
            findings.append(SecretFinding(kind, raw[:4] + "…" if len(raw) > 4 else "…"))
    return findings
