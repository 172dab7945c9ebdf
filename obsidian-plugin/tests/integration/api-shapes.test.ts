// What the real daemon answers the plugin's client has exactly the shape src/api/generated.ts
// gives it: every field the spec names is there (the generator makes them all present in a
// success body), none it does not name, each of the spec's type.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPEC_PATH } from "../../scripts/gen-types.mjs";
import { startDaemon, type RunningDaemon } from "./daemon";

interface Schema {
  $ref?: string;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  prefixItems?: Schema[];
}

const schemas = (JSON.parse(readFileSync(SPEC_PATH, "utf8")) as { components: { schemas: Record<string, Schema> } }).components.schemas;

/** Where `value` departs from `schema`, one line each; empty when it fits. */
function mismatches(value: unknown, schema: Schema, where: string): string[] {
  if (schema.$ref) return mismatches(value, schemas[schema.$ref.split("/").pop()!]!, where);
  if (schema.anyOf) {
    const tries = schema.anyOf.map((s) => mismatches(value, s, where));
    return tries.some((t) => t.length === 0) ? [] : tries.flat();
  }
  if (schema.enum) return schema.enum.includes(value) ? [] : [`${where}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  if ("const" in schema) return value === schema.const ? [] : [`${where}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`];
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  const wanted = schema.type === "integer" ? "number" : schema.type;
  if (wanted === undefined) return [];
  if (kind !== wanted) return [`${where}: a ${kind}, the spec says ${schema.type}`];
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => mismatches(item, schema.prefixItems?.[i] ?? schema.items ?? {}, `${where}[${i}]`));
  }
  if (kind !== "object") return [];
  const fields = value as Record<string, unknown>;
  if (!schema.properties) {
    const each = typeof schema.additionalProperties === "object" ? schema.additionalProperties : {};
    return Object.entries(fields).flatMap(([k, v]) => mismatches(v, each, `${where}.${k}`));
  }
  const named = Object.keys(schema.properties);
  return [
    ...named.filter((k) => !(k in fields)).map((k) => `${where}: no "${k}"`),
    ...Object.keys(fields).filter((k) => !named.includes(k)).map((k) => `${where}: "${k}" is not in the spec`),
    ...named.filter((k) => k in fields).flatMap((k) => mismatches(fields[k], schema.properties![k]!, `${where}.${k}`)),
  ];
}

const answer = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon();
});

afterAll(async () => {
  await daemon?.stop();
});

describe("the daemon's answers fit the generated types", () => {
  it("holds for every read the plugin makes", async () => {
    const client = daemon.client();
    const list = await client.listMemories({ status: "all" });
    const first = list.memories[0]!;
    const history = await client.history(first.id!);
    const answers: [string, unknown][] = [
      ["MemoryList", list],
      ["MemoryDetail", await client.memory(first.id!)],
      ["MemoryDetail", await client.lookup(first.path)],
      ["SearchResult", await client.search("coffee")],
      ["SearchResult", await client.related("Areas/Running.md")],
      ["HistoryResult", history],
      ["VersionResult", await client.version(first.id!, history.commits[0]!.sha)],
      ["SettingsList", await client.config()],
    ];
    expect(list.memories.length).toBeGreaterThan(1);
    expect(answers.flatMap(([name, value]) => mismatches(value, answer(name), name))).toEqual([]);
  });

  it("holds for every change the plugin asks for", async () => {
    const client = daemon.client();
    const [first] = await client.allMemories("active");
    const gc = await client.gc({ dryRun: false });
    expect(gc.removed_count).toBeGreaterThan(0);
    const forgotten = await client.forgotten();
    const answers: [string, unknown][] = [
      ["TouchResult", await client.touch(first!.id!)],
      ["PromoteResult", await client.promoteCandidates(true)],
      ["PromoteResult", await client.promote(first!.id!, { dryRun: true, force: true })],
      ["GcResult", gc],
      ...forgotten.map((f): [string, unknown] => ["ForgottenView", f]),
      ["RestoreResult", await client.restore(forgotten[0]!.id)],
    ];
    expect(forgotten.length).toBe(gc.removed_count);
    expect(answers.flatMap(([name, value]) => mismatches(value, answer(name), name))).toEqual([]);
  });
});
