"""The OpenAPI 3.1 spec, built from the route table and its pydantic models.

Served at GET /api/v1/openapi.json; a copy is committed as docs/openapi.json and a test fails
when they differ. Regenerate the copy with:

    python -m cortexgraph_vault.api.openapi docs/openapi.json
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, JsonValue
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from cortexgraph_vault import __version__
from cortexgraph_vault.api.endpoints import Endpoint
from cortexgraph_vault.api.schemas import ErrorBody

REF = "#/components/schemas/{model}"
REGENERATE = "python -m cortexgraph_vault.api.openapi docs/openapi.json"
STATUS_TEXT = {
    200: "OK",
    201: "Created",
    400: "Bad input or a path outside the vault",
    401: "Missing or wrong bearer token",
    403: "Origin not allowed",
    404: "Not found",
    409: "Conflict (changed since read) or ambiguous reference",
    413: "Request body too large",
    421: "Host not served here",
    422: "Invalid request (the detail names the field)",
    501: "Not available in this version yet",
    503: "Git or the vault lock is busy or unavailable",
}
DESCRIPTION = (
    "The cortexgraph-vault daemon, on 127.0.0.1 only. Every route but /health needs "
    "`Authorization: Bearer <token>` (`cortexgraph-vault token` prints it). Errors are "
    "`{error, detail}`. MCP over streamable HTTP is served at /mcp with the same token."
)


# JSON as pydantic writes it: free JSON, read key by key where it is rewritten.
Schema = dict[str, JsonValue]
ModelKey = tuple[type[BaseModel], JsonSchemaMode]
NamedKey = tuple[type, JsonSchemaMode]  # as pydantic gives them back (a dataclass could be one)


def _is_model(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, BaseModel)


def _without_null(schema: Schema) -> Schema:
    """A query parameter is absent or a value, never JSON null: drop the null branch."""
    options = schema.get("anyOf")
    if not isinstance(options, list):
        return schema
    rest = [o for o in options if not (isinstance(o, dict) and o.get("type") == "null")]
    if len(rest) != 1 or not isinstance(rest[0], dict):
        return schema
    out = {k: v for k, v in schema.items() if k != "anyOf"}
    if out.get("default", 0) is None:
        del out["default"]
    return {**rest[0], **out}


def _query_parameters(model: type[BaseModel], defs: Schema) -> list[JsonValue]:
    schema = model.model_json_schema(ref_template=REF)
    defs.update(schema.get("$defs", {}))
    required = set(schema.get("required", []))
    params: list[JsonValue] = []
    for name, given in schema["properties"].items():
        prop = _without_null({k: v for k, v in given.items() if k != "title"})
        param: Schema = {"name": name, "in": "query", "required": name in required}
        if "description" in prop:
            param["description"] = prop.pop("description")
        params.append({**param, "schema": prop})
    return params


def _json(ref: str | None) -> Schema:
    return {"application/json": {"schema": {"$ref": REF.format(model=ref)} if ref else {}}}


def _operation(e: Endpoint, names: dict[NamedKey, str], defs: Schema) -> Schema:
    params: list[JsonValue] = [
        {"name": p, "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}
        for p in e.route.in_path
    ]
    if e.query is not None:
        params += _query_parameters(e.query, defs)
    route = e.route
    op: Schema = {"operationId": route.name, "summary": route.summary, "tags": [route.tag]}
    if route.description:
        op["description"] = route.description
    if params:
        op["parameters"] = params
    if e.body is not None:
        op["requestBody"] = {"required": True, "content": _json(names[(e.body, "validation")])}
    answer = names.get((e.response, "serialization")) if _is_model(e.response) else None
    responses: Schema = {
        str(route.status): {"description": STATUS_TEXT[route.status], "content": _json(answer)}
    }
    errors = {403, 421, *route.errors}
    if not e.public:
        errors.add(401)
    if e.body is not None:
        errors |= {413, 422}
    if e.query is not None:
        errors.add(422)
    for status in sorted(errors):
        responses[str(status)] = {
            "description": STATUS_TEXT[status],
            "content": _json(names[(ErrorBody, "serialization")]),
        }
    op["responses"] = responses
    if e.public:
        op["security"] = []
    return op


def build_openapi(endpoints: list[Endpoint]) -> Schema:
    wanted: list[ModelKey] = [(ErrorBody, "serialization")]
    for e in endpoints:
        if e.body is not None:
            wanted.append((e.body, "validation"))
        if _is_model(e.response):
            wanted.append((e.response, "serialization"))
    unique = list(dict.fromkeys(wanted))
    keys, top = models_json_schema(unique, ref_template=REF)
    names: dict[NamedKey, str] = {
        key: schema["$ref"].rsplit("/", 1)[-1] for key, schema in keys.items()
    }
    defs: Schema = dict(top.get("$defs", {}))
    paths: dict[str, Schema] = {}
    for e in endpoints:
        paths.setdefault(e.route.path, {})[e.route.method.lower()] = _operation(e, names, defs)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "cortexgraph-vault daemon",
            "version": __version__,
            "description": DESCRIPTION,
        },
        "paths": dict(paths),
        "components": {
            "schemas": dict(sorted(defs.items())),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }


@functools.cache
def openapi_spec() -> Schema:
    from cortexgraph_vault.api.routes import rest_endpoints

    return build_openapi(list(rest_endpoints()))


def openapi_text() -> str:
    return json.dumps(openapi_spec(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    if argv:
        Path(argv[0]).write_text(openapi_text(), encoding="utf-8")
    else:
        sys.stdout.write(openapi_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
