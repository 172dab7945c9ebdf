"""Issue 15 item 6: a credential in any field, through any door, is refused and never reaches
a file or git; a forced one never names a file or a commit.

Doors: the service itself, the MCP tools through a real client, the REST API over real HTTP on
127.0.0.1, the command line. Fields: content, title, source, context, tags, entities, meta,
relation metadata, and the update path (content, tags, entities).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cortexgraph_vault.cli.main import main as cli_main
from cortexgraph_vault.core.credentials import luhn_valid
from cortexgraph_vault.core.secrets import visible
from cortexgraph_vault.errors import SecretRefused
from tests.api.daemon_process import Daemon, start_daemon
from tests.conftest import NOW_ISO, examples, git, scenario_size
from tests.mcp.mcp_session import connected, service_for, text_of, vault_fingerprint

LABELLED = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "core" / "credential_sentences.jsonl")
    .read_text()
    .splitlines()
    if line.strip()
]
# Every secret sentence is refused at the door, and every ordinary one saved (a commit each)
# under CI's profile; a person's run saves an even spread of the ordinary ones, every language
# among them (tests/core/test_secrets.py reads each sentence of the set).
ORDINARY = [r for r in LABELLED if not r["secret"]]
SAVED_ORDINARY = ORDINARY[:: len(ORDINARY) // scenario_size(len(ORDINARY), 70)]
EVERYDAY = [r for r in LABELLED if r["secret"] or r in SAVED_ORDINARY]
DOOR_SETTINGS = settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
MEMORY = "Uses Neovim"
OTHER = "Prefers TypeScript"


# Credentials as people write them: `v` a password, `d` a code in digits, `w` one spelled out.
EVERYDAY_PHRASINGS = [
    "wifi password {v}", "my PIN is {w}", "alarm is {d} to disarm", "{v} is the wifi password",
    "use {d} for the alarm", "gate code: {d}", "Das WLAN-Passwort ist {v}",
    "Le code de la porte est {d}", "La contraseña del wifi es {v}", "Il mio PIN è {d}",
    "A senha do wifi é {v}", "Mijn pincode is {d}",
]  # fmt: skip
SPELLED = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


# Secret-shaped values -------------------------------------------------------------------------
def _card(body: str) -> str:
    digits = "4" + body
    check = next(str(d) for d in range(10) if luhn_valid(digits + str(d)))
    full = digits + check
    return " ".join(full[i : i + 4] for i in range(0, 16, 4))


def _iban(account: str) -> str:
    moved = account + "DE00"
    check = 98 - int("".join(str(int(c, 36)) for c in moved)) % 97
    return f"DE{check:02d}{account}"


def _split(token: str, cuts: list[tuple[int, str]]) -> str:
    for at, ch in cuts:
        at = min(at, len(token) - 1)
        token = token[:at] + ch + token[at:]
    return token


SECRETS = st.one_of(
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=16, max_size=16).map(
        lambda s: f"key AKIA{s}"
    ),
    st.builds(
        _split,
        st.text(ALNUM, min_size=36, max_size=36).map(lambda s: "ghp_" + s),
        st.lists(st.tuples(st.integers(1, 39), st.sampled_from(ZERO_WIDTH)), max_size=3),
    ),
    st.text(ALNUM + "/+", min_size=39, max_size=39).map(lambda s: f"aws_secret_access_key = {s}/"),
    st.text("0123456789", min_size=4, max_size=8).map(lambda d: f"my bank PIN is {d}"),
    st.tuples(st.text("abcdefghijkmnpqrstuvwxyz", min_size=4, max_size=8), st.integers(0, 99)).map(
        lambda t: f"The wifi password at home is {t[0]}{t[1]}!"
    ),
    st.text("0123456789", min_size=14, max_size=14).map(lambda d: f"card {_card(d)}"),
    st.text("0123456789", min_size=18, max_size=18).map(lambda d: f"IBAN {_iban(d)}"),
    st.tuples(st.integers(1, 665), st.integers(1, 99), st.integers(1, 9999))
    .filter(lambda t: t[0] != 666)
    .map(lambda t: f"my SSN is {t[0]:03d}-{t[1]:02d}-{t[2]:04d}"),
    st.builds(
        lambda phrasing, word, number, code: phrasing.format(
            v=f"{word}{number}", d=code, w=" ".join(SPELLED[int(c)] for c in code)
        ),
        st.sampled_from(EVERYDAY_PHRASINGS),
        st.text("abcdefghijkmnpqrstuvwxyz", min_size=4, max_size=8),
        st.integers(0, 99),
        st.text("0123456789", min_size=4, max_size=6).map(lambda d: "8" + d[1:]),
    ),
)


def squash(text: str) -> str:
    """Lower-case letters and digits only: a secret is found however a field was normalised
    (tags to `a-b`, titles to file names, entities' spaces)."""
    return re.sub(r"[^0-9a-z]", "", visible(text).lower())


def squashed_places(vault: Path) -> dict[str, str]:
    """Every place a secret could land, squashed: vault files (outside .git) and all of git."""
    places = {
        str(p.relative_to(vault)): squash(p.read_text(errors="replace"))
        for p in vault.rglob("*")
        if p.is_file() and ".git" not in p.relative_to(vault).parts
    }
    places["git history"] = squash(git(vault, "log", "--all", "-p", "--format=%H%n%B"))
    return places


def leaks(vault: Path, secret: str, places: dict[str, str] | None = None) -> list[str]:
    """Where the secret's characters occur (in `places`, read from the vault when not given)."""
    needle = squash(secret)
    return [name for name, text in (places or squashed_places(vault)).items() if needle in text]


def place(field: str, secret: str) -> dict[str, Any]:
    """Arguments with the secret in `field` (a mapping field gets it as a value and a key)."""
    if field in ("tags", "entities"):
        return {field: ["ordinary", secret]}
    if field in ("meta", "metadata"):
        return {field: {"note": secret, secret[:60]: "x"}}
    return {field: secret}


@pytest.fixture
def vault(git_vault: Path) -> Path:
    return git_vault


def unchanged(vault: Path, before: dict[str, str], secret: str) -> None:
    assert vault_fingerprint(vault) == before
    assert leaks(vault, secret) == []


# The service -------------------------------------------------------------------------------------
SAVE_FIELDS = ["content", "title", "source", "context", "tags", "entities", "meta"]
UPDATE_FIELDS = ["content", "tags", "entities"]
ALL_FIELDS = [*SAVE_FIELDS, *("update " + f for f in UPDATE_FIELDS), "metadata"]


@DOOR_SETTINGS
@given(secret=SECRETS, field=st.sampled_from(ALL_FIELDS))  # fmt: skip
def test_the_service_refuses_a_secret_in_every_field(vault: Path, secret: str, field: str) -> None:
    s = service_for(vault)
    before = vault_fingerprint(vault)
    with pytest.raises(SecretRefused) as refused:
        if field.startswith("update "):
            s.update(MEMORY, **place(field.split()[1], secret))
        elif field == "metadata":
            s.relate(MEMORY, OTHER, "related", metadata=place("metadata", secret)["metadata"])
        else:
            s.save(**{"content": "An ordinary memory.", **place(field, secret)})
    assert field.split()[-1] in str(refused.value) and "force" in str(refused.value)
    assert squash(secret) not in squash(str(refused.value))
    unchanged(vault, before, secret)


# MCP, through a real client -------------------------------------------------------------------------
@DOOR_SETTINGS
@given(secret=SECRETS, field=st.sampled_from(ALL_FIELDS))  # fmt: skip
def test_the_mcp_tools_refuse_a_secret_in_every_field(vault: Path, secret: str, field: str) -> None:
    before = vault_fingerprint(vault)
    if field.startswith("update "):
        tool, args = "update_memory", {"memory_id": MEMORY, **place(field.split()[1], secret)}
    elif field == "metadata":
        tool = "create_relation"
        args = {"from_memory_id": MEMORY, "to_memory_id": OTHER, "relation_type": "related",
                **place("metadata", secret)}  # fmt: skip
    else:
        tool, args = "save_memory", {"content": "An ordinary memory.", **place(field, secret)}

    async def call() -> Any:
        async with connected(service_for(vault)) as client:
            return await client.call_tool(tool, args)

    result = anyio.run(call)
    assert (
        result.is_error
        and result.structured_content["error"] == "secret_refused"
        and "force" in text_of(result)
    )
    unchanged(vault, before, secret)


# REST, over real HTTP ---------------------------------------------------------------------------------
@pytest.fixture
def daemon(vault: Path, tmp_path: Path) -> Iterator[Daemon]:
    d = start_daemon(tmp_path / "daemon-home", vault)
    yield d
    d.stop()


REST_FIELDS = ["content", "title", "source", "context", "tags", "entities"]


@DOOR_SETTINGS
@given(
    secret=SECRETS, field=st.sampled_from([*REST_FIELDS, *("patch " + f for f in UPDATE_FIELDS)])
)
def test_the_rest_api_refuses_a_secret_in_every_field(
    vault: Path, daemon: Daemon, secret: str, field: str
) -> None:
    before = vault_fingerprint(vault)
    with daemon.client() as http:
        if field.startswith("patch "):
            reply = http.patch(f"/api/v1/memories/{MEMORY}", json=place(field.split()[1], secret))
        else:
            body = {"content": "An ordinary memory.", **place(field, secret)}
            reply = http.post("/api/v1/memories", json=body)
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"] == "secret_refused"
    assert squash(secret) not in squash(reply.text)
    unchanged(vault, before, secret)


# The command line ------------------------------------------------------------------------------------
CLI_FIELDS = ["content", "--title", "--source", "--context", "--tags", "--entities"]


@DOOR_SETTINGS
@given(secret=SECRETS, field=st.sampled_from([*CLI_FIELDS, "update --content", "update --tags", "update --entities"]))  # fmt: skip
def test_the_command_line_refuses_a_secret_in_every_field(
    vault: Path, capsys: pytest.CaptureFixture[str], secret: str, field: str
) -> None:
    before = vault_fingerprint(vault)
    base = ["--vault", str(vault), "--now", NOW_ISO]
    if field.startswith("update "):
        argv = [*base, "update", MEMORY, field.split()[1], secret]
    elif field == "content":
        argv = [*base, "save", secret]
    else:
        argv = [*base, "save", "An ordinary memory.", field, secret]
    assert cli_main(argv) != 0
    err = capsys.readouterr().err
    assert "force" in err and squash(secret) not in squash(err)
    unchanged(vault, before, secret)


# Forced: saved, but never in a file name or a commit message ---------------------------------------
def test_a_forced_secret_names_no_file_and_no_commit(vault: Path, cli: Any) -> None:
    done = cli("--json", "save", "My bank PIN is 4921", "--force", vault=vault)
    assert done.code == 0, done.err
    path = done.json()["path"]
    assert "4921" not in path and path == "_stm/My bank PIN is redacted.md"
    assert "My bank PIN is 4921" in (vault / path).read_text()  # forced: the text is kept
    assert "4921" not in git(vault, "log", "--format=%B")
    titled = cli("--json", "save", "a note", "--title", "wifi password is hunter2-Garden!",
                 "--force", vault=vault)  # fmt: skip
    assert titled.code == 0, titled.err
    assert "hunter2" not in titled.json()["path"] and "hunter2" not in git(
        vault, "log", "--format=%B"
    )


# Imports -------------------------------------------------------------------------------------------
CORTEXGRAPH_FIELDS = ["content", "source", "context", "tags", "entities", "extra", "relation"]


@DOOR_SETTINGS
@given(secret=SECRETS, field=st.sampled_from(CORTEXGRAPH_FIELDS))
def test_an_import_takes_no_secret_from_any_field(
    vault: Path, tmp_path_factory: pytest.TempPathFactory, secret: str, field: str
) -> None:
    folder = tmp_path_factory.mktemp("cortexgraph")
    meta: dict[str, Any] = {"tags": ["imported"], "source": "chat", "context": "x", "extra": {}}
    record: dict[str, Any] = {"id": "m-1", "content": "An imported memory.", "meta": meta,
                              "created_at": 1793523600, "use_count": 1}  # fmt: skip
    other = {**record, "id": "m-2", "content": "Another imported memory."}
    relation = {"id": "r-1", "from_memory_id": "m-1", "to_memory_id": "m-2",
                "relation_type": "related"}  # fmt: skip
    if field == "content":
        record["content"] = secret
    elif field == "entities":
        record["entities"] = [secret]
    elif field == "relation":
        relation["metadata"] = {"note": secret}
    elif field == "tags":
        meta["tags"] = [secret]
    elif field == "extra":
        meta["extra"] = {"note": secret}
    else:
        meta[field] = secret
    lines = [json.dumps(record), json.dumps(other)]
    (folder / "memories.jsonl").write_text("\n".join(lines) + "\n")
    (folder / "relations.jsonl").write_text(json.dumps(relation) + "\n")
    result = service_for(vault).import_cortexgraph(str(folder), dry_run=False)
    assert any("--allow-secrets" in p.reason for p in result.problems), result.problems
    assert leaks(vault, secret) == []
    assert not [p for p in vault.rglob("*.md") if "id: m-1\n" in p.read_text()]
    assert [p for p in vault.rglob("*.md") if "id: m-2\n" in p.read_text()]  # the other came in


def test_a_memory_json_entity_with_a_secret_is_not_imported(vault: Path, tmp_path: Path) -> None:
    router = {"type": "entity", "name": "Home router", "entityType": "device",
              "observations": ["admin password is Tr0ub4dor&3"]}  # fmt: skip
    maya = {"type": "entity", "name": "Maya", "entityType": "person", "observations": ["tea"]}
    source = tmp_path / "memory.json"
    source.write_text(json.dumps(router) + "\n" + json.dumps(maya) + "\n")
    result = service_for(vault).import_memory_json(str(source))
    assert result.created == 1 and "--allow-secrets" in result.problems[0].reason
    assert leaks(vault, "Tr0ub4dor&3") == []


# Everyday sentences ------------------------------------------------------------------------------
def test_everyday_sentences_no_secret_saved_no_false_refusal(vault: Path) -> None:
    s = service_for(vault)
    false_refusals: list[str] = []
    for r in EVERYDAY:
        try:
            s.save(r["text"])
        except SecretRefused:
            if not r["secret"]:
                false_refusals.append(r["text"])
        else:
            assert not r["secret"], f"saved a credential: {r['text']}"
        if r["secret"]:
            assert not s.analyze_message(r["text"]).should_save, r["text"]
    assert false_refusals == []
    places = squashed_places(vault)
    for r in EVERYDAY:
        if r["secret"]:
            assert leaks(vault, r["text"], places) == [], r["text"]
    assert subprocess.run(["git", "-C", str(vault), "status", "--porcelain"],
                          capture_output=True, text=True).stdout == ""  # fmt: skip
