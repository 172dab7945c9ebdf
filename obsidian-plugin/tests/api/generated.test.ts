// src/api/generated.ts is what scripts/gen-types.mjs makes of docs/openapi.json, byte for byte:
// a change to the daemon's models that was not carried into the plugin fails here.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OUT_PATH, SPEC_PATH, generateTypes } from "../../scripts/gen-types.mjs";

const spec = JSON.parse(readFileSync(SPEC_PATH, "utf8")) as { components: { schemas: Record<string, unknown> } };
const committed = readFileSync(OUT_PATH, "utf8");

describe("src/api/generated.ts", () => {
  it("is exactly what docs/openapi.json gives (else: npm run gen:types)", () => {
    expect(committed, "src/api/generated.ts is out of date with docs/openapi.json: run `npm run gen:types`").toBe(
      generateTypes(spec),
    );
  });

  it("declares one type for every schema of the spec", () => {
    const declared = [...committed.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    expect(declared).toEqual(expect.arrayContaining(Object.keys(spec.components.schemas)));
  });
});
