// The generator of the plugin's API types: what it makes of each JSON Schema form pydantic
// emits, what it refuses, and the command a developer runs (`npm run gen:types [-- --check]`).

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { SpecError, generateTypes } from "../../scripts/gen-types.mjs";

const SCRIPT = new URL("../../scripts/gen-types.mjs", import.meta.url).pathname;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** A spec with the given schemas, a POST taking `body` and answering `answer`, errors as `error`. */
function specWith(schemas: Record<string, unknown>, routes: { body?: string; answer?: string; error?: string; query?: unknown[] } = {}) {
  const responses: Record<string, unknown> = {};
  if (routes.answer) responses["200"] = json(ref(routes.answer));
  if (routes.error) responses["404"] = json(ref(routes.error));
  return {
    openapi: "3.1.0",
    paths: {
      "/api/v1/things": {
        post: {
          operationId: "make_thing",
          ...(routes.body ? { requestBody: json(ref(routes.body)) } : {}),
          ...(routes.query ? { parameters: routes.query } : {}),
          responses,
        },
      },
    },
    components: { schemas },
  };
}

function syntaxErrors(text: string): string[] {
  const out = ts.transpileModule(text, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("generateTypes", () => {
  it("types each form pydantic emits", () => {
    const text = generateTypes(
      specWith(
        {
          Thing: {
            type: "object",
            description: "A thing the daemon keeps.",
            properties: {
              id: { type: "string", title: "Id" },
              note: { anyOf: [{ type: "string" }, { type: "null" }], description: "free text; null when unset" },
              kind: { enum: ["a", "b"], type: "string" },
              always: { const: 3 },
              scores: { type: "array", items: { type: "number" } },
              mixed: { type: "array", items: { anyOf: [{ type: "integer" }, { type: "string" }] } },
              pair: { type: "array", prefixItems: [{ type: "string" }, { type: "boolean" }] },
              counts: { type: "object", additionalProperties: { type: "integer" }, maxProperties: 20 },
              anything: {},
              loose: { type: "object" },
              child: ref("Child"),
              "odd-name": { type: "boolean" },
            },
            required: ["id", "note", "kind", "always", "scores", "mixed", "pair", "counts", "anything", "loose", "child", "odd-name"],
          },
          Child: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
        },
        { answer: "Thing" },
      ),
    );
    expect(text).toContain(`/** A thing the daemon keeps. */
export interface Thing {
  id: string;
  /** free text; null when unset */
  note: string | null;
  kind: "a" | "b";
  always: 3;
  scores: number[];
  mixed: (number | string)[];
  pair: [string, boolean];
  counts: Record<string, number>;
  anything: unknown;
  loose: Record<string, unknown>;
  child: Child;
  "odd-name": boolean;
}
`);
    expect(text).toContain("export interface Child {\n  n: number;\n}\n");
    expect(syntaxErrors(text)).toEqual([]);
  });

  it("keeps `?` and names the default in what the plugin sends, and makes every field present in what the daemon answers", () => {
    const fields = {
      type: "object",
      properties: { dry_run: { type: "boolean", default: true }, limit: { anyOf: [{ type: "integer" }, { type: "null" }], default: null } },
    };
    const text = generateTypes(
      specWith(
        {
          Ask: fields,
          Answer: fields,
          Problem: { type: "object", properties: { error: { type: "string" }, hint: { type: "string", default: "" } }, required: ["error"] },
        },
        { body: "Ask", answer: "Answer", error: "Problem" },
      ),
    );
    expect(text).toContain("export interface Ask {\n  /** @default true */\n  dry_run?: boolean;\n  limit?: number | null;\n}\n");
    // A success body is a model dumped whole; an error body is built by hand and may leave fields out.
    expect(text).toContain("export interface Answer {\n  dry_run: boolean;\n  limit: number | null;\n}\n");
    expect(text).toContain('export interface Problem {\n  error: string;\n  /** @default "" */\n  hint?: string;\n}\n');
  });

  it("keeps `?` on a schema that is both sent and answered", () => {
    const text = generateTypes(
      specWith({ Both: { type: "object", properties: { x: { type: "string", default: "" } } } }, { body: "Both", answer: "Both" }),
    );
    expect(text).toContain("  x?: string;\n");
  });

  it("gives each route's query its own interface named after the operation", () => {
    const text = generateTypes(
      specWith(
        { Thing: { type: "object", properties: {} } },
        {
          answer: "Thing",
          query: [
            { name: "q", in: "query", required: true, description: "what to look for", schema: { type: "string", maxLength: 10 } },
            { name: "status", in: "query", required: false, schema: { type: "array", items: { enum: ["active", "all"], type: "string" } } },
            { name: "ref", in: "path", required: true, schema: { type: "string" } },
          ],
        },
      ),
    );
    expect(text).toContain(`/** The query of POST /api/v1/things. */
export interface MakeThingQuery {
  /** what to look for */
  q: string;
  status?: ("active" | "all")[];
}
`);
  });

  it("escapes a description that would end the comment", () => {
    const text = generateTypes(specWith({ T: { type: "object", properties: { p: { type: "string", description: "glob like */*.md" } } } }));
    expect(text).toContain("/** glob like *\\/*.md */");
    expect(syntaxErrors(text)).toEqual([]);
  });

  it("refuses a keyword it does not understand, naming where", () => {
    const spec = specWith({ T: { type: "object", properties: { p: { not: { type: "string" } } } } });
    expect(() => generateTypes(spec)).toThrow(SpecError);
    expect(() => generateTypes(spec)).toThrow('#/components/schemas/T/properties/p: unsupported JSON Schema keyword "not"');
  });

  it("refuses a $ref to a schema the spec lacks", () => {
    const spec = specWith({ T: { type: "object", properties: { p: ref("Gone") } } });
    expect(() => generateTypes(spec)).toThrow('#/components/schemas/T/properties/p: $ref "#/components/schemas/Gone" names no schema');
  });

  it("refuses a query type whose name a schema already has", () => {
    const spec = specWith({ MakeThingQuery: { type: "object", properties: {} } }, { query: [{ name: "q", in: "query", schema: { type: "string" } }] });
    expect(() => generateTypes(spec)).toThrow("POST /api/v1/things: MakeThingQuery is also a schema's name");
  });
});

describe("node scripts/gen-types.mjs", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function run(...args: string[]) {
    return spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8" });
  }

  function files(schemas: Record<string, unknown>) {
    dir = mkdtempSync(join(tmpdir(), "gen-types-"));
    const spec = join(dir, "openapi.json");
    writeFileSync(spec, JSON.stringify(specWith(schemas)));
    return { spec, out: join(dir, "generated.ts") };
  }

  it("writes the file, then --check passes", () => {
    const { spec, out } = files({ T: { type: "object", properties: { a: { type: "string" } }, required: ["a"] } });
    const wrote = run("--spec", spec, "--out", out);
    expect(wrote.status).toBe(0);
    expect(wrote.stdout).toContain(`wrote ${out}`);
    expect(readFileSync(out, "utf8")).toContain("export interface T {\n  a: string;\n}\n");
    expect(run("--spec", spec, "--out", out, "--check").status).toBe(0);
  });

  it("--check fails on a stale file, says what to run and leaves the file alone", () => {
    const { spec, out } = files({ T: { type: "object", properties: {} } });
    writeFileSync(out, "// stale\n");
    const checked = run("--spec", spec, "--out", out, "--check");
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain(`${out} is out of date with ${spec}; run \`npm run gen:types\``);
    expect(readFileSync(out, "utf8")).toBe("// stale\n");
  });

  it("names the missing spec and writes nothing", () => {
    dir = mkdtempSync(join(tmpdir(), "gen-types-"));
    const out = join(dir, "generated.ts");
    const result = run("--spec", join(dir, "nope.json"), "--out", out);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${join(dir, "nope.json")}: no such file`);
    expect(() => readFileSync(out)).toThrow();
  });

  it("names a spec the generator cannot type, and writes nothing", () => {
    const { spec, out } = files({ T: { type: "object", properties: { p: { if: {} } } } });
    const result = run("--spec", spec, "--out", out);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('gen-types: #/components/schemas/T/properties/p: unsupported JSON Schema keyword "if"');
    expect(() => readFileSync(out)).toThrow();
  });

  it("names an unknown argument", () => {
    const result = run("--chek");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown argument "--chek"');
  });
});
