from __future__ import annotations

import pytest

from cortexgraph_vault.core.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        "my key is AKIAIOSFODNN7EXAMPLE for the staging bucket",
        "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "use sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=",
        "the wifi password is hunter2!x",
        "db url postgres://maya:s3cretpw@db.internal/app",
        "API_KEY=4f9a8b7c6d5e4f3a2b1c",
    ],
)
def test_credentials_are_found_and_masked(text: str) -> None:
    findings = find_secrets(text)
    assert findings
    assert all(len(f.excerpt) <= 5 for f in findings)


@pytest.mark.parametrize(
    "text",
    [
        "Maya prefers TypeScript over JavaScript.",
        "We rotate the API key every 90 days; the policy lives in the wiki.",
        "Her password manager is 1Password.",
        "The secret to good ramen is the broth.",
        "See https://example.org/docs for details.",
    ],
)
def test_ordinary_sentences_about_secrets_pass(text: str) -> None:
    assert find_secrets(text) == []
