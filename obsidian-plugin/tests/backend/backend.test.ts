import { describe, expect, it } from "vitest";
import { NotFound } from "../../src/api/errors";
import type { ConnectionState } from "../../src/model/connection";
import { FakeTransport, json } from "../support/fake-transport";
import { backendOver, refusedTransport } from "../support/backend";

describe("Backend", () => {
  it("starts unknown, goes online on an answer and loads the effective configuration once", async () => {
    const t = new FakeTransport()
      .on("GET /health", () => json(200, { ok: true }))
      .on("GET /api/v1/config", () => json(200, { settings: [{ name: "forget_threshold", env: "E", value: 0.08, origin: "vault", help: "" }] }));
    const backend = backendOver(t);
    const seen: ConnectionState[] = [];
    backend.onState((s) => seen.push(s));
    expect(backend.state.kind).toBe("unknown");
    await backend.probe();
    await backend.probe();
    expect(seen).toEqual([{ kind: "online" }]);
    expect(backend.config.thresholds.forget).toBe(0.08);
    expect(t.paths().filter((p) => p === "GET /api/v1/config")).toHaveLength(1);
  });

  it("goes offline when nothing listens, and says so once", async () => {
    const backend = backendOver(refusedTransport());
    const seen: string[] = [];
    backend.onState((s) => seen.push(s.kind));
    await backend.probe();
    await backend.probe();
    expect(seen).toEqual(["offline"]);
  });

  it("stays online when one request fails on its own merits", async () => {
    const t = new FakeTransport()
      .on("GET /api/v1/config", () => json(200, { settings: [] }))
      .on("GET /api/v1/memories/x", () => json(404, { error: "not_found", detail: "no memory x" }));
    const backend = backendOver(t);
    await expect(backend.run((c) => c.memory("x"))).rejects.toBeInstanceOf(NotFound);
    expect(backend.state.kind).toBe("online");
  });

  it("marks a refused token", async () => {
    const t = new FakeTransport().on("GET /api/v1/memories", () => json(401, { error: "unauthorized", detail: "no" }));
    const backend = backendOver(t, null);
    await backend.run((c) => c.listMemories()).catch(() => undefined);
    expect(backend.state.kind).toBe("unauthorized");
  });

  it("keeps the default configuration from a backend without /config", async () => {
    const t = new FakeTransport().on("GET /health", () => json(200, { ok: true }));
    const backend = backendOver(t);
    await backend.probe();
    expect(backend.config.folders.stm).toBe("_stm");
  });

  it("uses new settings at once after reconfigure", async () => {
    const t = new FakeTransport().on("GET /health", () => json(200, { ok: true }));
    const backend = backendOver(t);
    let changed = 0;
    backend.onChanged(() => (changed += 1));
    backend.reconfigure({ baseUrl: "http://127.0.0.1:5000", token: () => "new", timeoutMs: 500 });
    await backend.probe();
    expect(t.requests.at(-2)?.url).toBe("http://127.0.0.1:5000/health");
    expect(changed).toBe(1);
  });
});
