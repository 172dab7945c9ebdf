"""An argument a call does not have is refused on every door, in the same words: the one
probably meant, the ones there are; nothing is saved or searched meanwhile."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from cortexgraph_vault.cli.main import main
from tests.api.asgi_client import asgi_client
from tests.mcp.mcp_session import connected, service_for, text_of, vault_fingerprint
from tests.mcp.test_mcp_stdio import child_env, server_argv

pytestmark = pytest.mark.anyio

TAGZ = "tagz: unknown argument (did you mean tags?)"
SAVE_ARGUMENTS = "The arguments are: content, tags, entities, source, context, meta, strength, title, force, supersedes"


async def test_mcp_refuses_a_misspelt_argument_instead_of_dropping_it(git_vault: Path) -> None:
    before = vault_fingerprint(git_vault)
    async with connected(service_for(git_vault)) as client:
        tagz = await client.call_tool(
            "save_memory", {"content": "Lena is a nurse", "tagz": ["family"]}
        )
        singular = await client.call_tool(
            "save_memory", {"content": "Lena is a nurse", "tag": ["family"], "entity": ["Lena"]}
        )
        q = await client.call_tool("search_memory", {"q": "coffee"})
        listed = {t.name: t for t in (await client.list_tools()).tools}
    assert tagz.is_error and text_of(tagz) == f"{TAGZ}. {SAVE_ARGUMENTS}"
    assert singular.is_error and text_of(singular).startswith(
        "tag: unknown argument (did you mean tags?); entity: unknown argument (did you mean entities?)."
    )
    assert q.is_error and text_of(q).startswith("q: unknown argument (did you mean query?).")
    assert q.structured_content is not None and q.structured_content["error"] == "invalid_argument"
    assert vault_fingerprint(git_vault) == before
    # the schema says so too: a client that checks arguments refuses before sending
    assert all(t.input_schema.get("additionalProperties") is False for t in listed.values())


async def test_mcp_over_real_stdio_refuses_an_unknown_argument(
    git_vault: Path, tmp_path: Path
) -> None:
    argv = server_argv(git_vault)
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=child_env())
    before = vault_fingerprint(git_vault)
    with (tmp_path / "stderr.log").open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            refused = await session.call_tool(
                "save_memory", {"content": "Lena is a nurse", "tagz": ["family"]}
            )
    assert refused.is_error and text_of(refused) == f"{TAGZ}. {SAVE_ARGUMENTS}"
    assert vault_fingerprint(git_vault) == before


async def test_rest_says_the_same_words(git_vault: Path) -> None:
    before = vault_fingerprint(git_vault)
    async with asgi_client(service_for(git_vault), 8765) as rest:
        route = await rest.post("/api/v1/memories", json={"content": "Lena", "tagz": ["family"]})
        operation = await rest.post(
            "/api/v1/operations/save_memory", json={"content": "Lena", "tagz": ["family"]}
        )
        search = await rest.get("/api/v1/search", params={"q": "x", "limt": 3})
    assert route.status_code == 422 and route.json()["error"] == "invalid_argument"
    assert route.json()["detail"].startswith(TAGZ + ". The arguments are: content,")
    assert operation.status_code == 422
    assert operation.json() == {"error": "invalid_argument", "detail": f"{TAGZ}. {SAVE_ARGUMENTS}"}
    assert search.status_code == 422
    assert search.json()["detail"].startswith("limt: unknown argument (did you mean limit?)")
    assert vault_fingerprint(git_vault) == before


def test_the_cli_says_the_same_words_with_its_options(
    git_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = vault_fingerprint(git_vault)
    with pytest.raises(SystemExit) as exit:
        main(["--vault", str(git_vault), "save", "Lena is a nurse", "--tagz", "family"])
    err = capsys.readouterr().err
    assert exit.value.code == 2
    assert err.startswith(
        "cortexgraph-vault save: --tagz: unknown argument (did you mean --tags?). "
        "The arguments are: CONTENT, --title, --tags,"
    ), err
    with pytest.raises(SystemExit):
        main(["--vault", str(git_vault), "search", "coffee", "--limt", "3"])
    assert "--limt: unknown argument (did you mean --limit?)" in capsys.readouterr().err
    assert vault_fingerprint(git_vault) == before
