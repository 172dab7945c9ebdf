import { describe, expect, it } from "vitest";
import { CortexClient } from "../../src/api/client";
import {
  Ambiguous,
  BackendBusy,
  BackendError,
  BackendOffline,
  BackendTimeout,
  BackendUnreachable,
  Conflict,
  InvalidRequest,
  NotAvailable,
  NotFound,
  Refused,
  Unauthorized,
} from "../../src/api/errors";
import type { Transport } from "../../src/api/transport";
import { aGcResult, aHit, aMemory } from "../support/memories";
import { FakeTransport, json, nodeTimers } from "../support/fake-transport";

function clientWith(transport: Transport, token: string | null = "s3cret", timeoutMs = 1_000) {
  return new CortexClient({ baseUrl: "http://127.0.0.1:47613/", token: () => token, transport, timeoutMs, timers: nodeTimers });
}

describe("CortexClient requests", () => {
  it("sends the bearer token on API routes", async () => {
    const t = new FakeTransport().on("GET /api/v1/memories", () => json(200, { memories: [], pagination: null }));
    await clientWith(t).listMemories({ status: "active" });
    expect(t.requests[0]?.headers.Authorization).toBe("Bearer s3cret");
  });

  it("sends no Authorization header when no token is set, and never puts it in the URL", async () => {
    const t = new FakeTransport().on("GET /health", () => json(200, { ok: true }));
    await clientWith(t, null).health();
    expect(t.requests[0]?.headers.Authorization).toBeUndefined();
    expect(t.requests[0]?.url).toBe("http://127.0.0.1:47613/health");
  });

  it("encodes the query and the memory reference", async () => {
    const t = new FakeTransport()
      .on("GET /api/v1/memories/lookup", () => json(200, aMemory()))
      .on("POST /api/v1/memories/Oat%20milk%20%2F%20coffee/touch", () =>
        json(200, { success: true, memory_id: "x", id: "x", path: "p", old_score: 0.2, new_score: 0.5, use_count: 3, strength: 1 }),
      );
    const client = clientWith(t);
    await client.lookup("_stm/Oat milk in coffee.md");
    await client.touch("Oat milk / coffee", true);
    expect(new URL(t.requests[0]!.url).searchParams.get("path")).toBe("_stm/Oat milk in coffee.md");
    expect(t.requests[1]?.url).toBe("http://127.0.0.1:47613/api/v1/memories/Oat%20milk%20%2F%20coffee/touch");
    expect(JSON.parse(t.requests[1]!.body!)).toEqual({ boost: true });
    expect(t.requests[1]?.headers["Content-Type"]).toBe("application/json");
  });

  it("asks for the notes related to a path, encoded, with its limit", async () => {
    const t = new FakeTransport().on("GET /api/v1/related", () => json(200, { success: true, count: 1, results: [aHit()] }));
    const result = await clientWith(t).related("Projects/Café & co #1.md", 8);
    const url = new URL(t.requests[0]!.url);
    expect(url.searchParams.get("path")).toBe("Projects/Café & co #1.md");
    expect(url.searchParams.get("limit")).toBe("8");
    expect(result.results.map((h) => h.path)).toEqual(["Notes/A note.md"]);
  });

  it("passes gc options in the contract's field names", async () => {
    const t = new FakeTransport().on("POST /api/v1/gc", () => json(200, aGcResult()));
    await clientWith(t).gc({ dryRun: false, archiveInstead: true, skipPaths: ["_stm/Open.md"] });
    expect(JSON.parse(t.requests[0]!.body!)).toEqual({ dry_run: false, archive_instead: true, skip_paths: ["_stm/Open.md"] });
  });

  it("follows pages until the backend says there are no more", async () => {
    const t = new FakeTransport().on("GET /api/v1/memories", (_r, url) => {
      const page = Number(url.searchParams.get("page"));
      const memories = page === 1 ? [aMemory(), aMemory()] : [aMemory()];
      return json(200, { memories, pagination: { page, page_size: 2, total_count: 3, total_pages: 2, has_more: page === 1, has_previous: page > 1 } });
    });
    const all = await clientWith(t).allMemories("active");
    expect(all).toHaveLength(3);
    expect(t.requests.map((r) => new URL(r.url).searchParams.get("page"))).toEqual(["1", "2"]);
    expect(new URL(t.requests[0]!.url).searchParams.get("status")).toBe("active");
  });

  it("returns null from lookup when the path is not a memory", async () => {
    const t = new FakeTransport().on("GET /api/v1/memories/lookup", () => json(404, { error: "not_found", detail: "Home.md is not a memory" }));
    expect(await clientWith(t).lookup("Home.md")).toBeNull();
  });

  it("unwraps the forgotten list", async () => {
    const f = { id: "i", title: "T", path: "_stm/T.md", deleted_in: "abc", deleted_at: "2026-11-01T00:00:00Z", preview: "p" };
    const t = new FakeTransport().on("GET /api/v1/forgotten", () => json(200, { forgotten: [f] }));
    expect(await clientWith(t).forgotten()).toEqual([f]);
  });
});

describe("CortexClient status mapping", () => {
  const cases: [number, object, new (...args: never[]) => BackendError][] = [
    [400, { error: "unsafe_path", detail: "../x: leaves the vault" }, InvalidRequest],
    [401, { error: "unauthorized", detail: "missing token" }, Unauthorized],
    [403, { error: "forbidden", detail: "origin refused" }, Refused],
    [404, { error: "not_found", detail: "no memory matches 'zz'" }, NotFound],
    [409, { error: "conflict", detail: "_stm/X.md: changed", expected_hash: "a", actual_hash: "b", current_text: "now" }, Conflict],
    [409, { error: "ambiguous", detail: "'Co' matches 2", candidates: ["1", "2"] }, Ambiguous],
    [413, { error: "too_large", detail: "body over 1 MB" }, InvalidRequest],
    [421, { error: "misdirected", detail: "host evil.example refused" }, Refused],
    [422, { error: "invalid", detail: "strength: must be 0..2" }, InvalidRequest],
    [501, { error: "not_available", detail: "search_unified arrives later" }, NotAvailable],
    [503, { error: "busy", detail: "git index.lock held" }, BackendBusy],
    [500, { error: "internal", detail: "boom" }, BackendError],
  ];

  for (const [status, body, type] of cases) {
    it(`maps HTTP ${status} (${(body as { error: string }).error}) to ${type.name}`, async () => {
      const t = new FakeTransport().on("GET /api/v1/memories/x", () => json(status, body));
      const error = await clientWith(t).memory("x").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect((error as BackendError).status).toBe(status);
      if (status !== 401) expect((error as BackendError).message).toBe((body as { detail: string }).detail);
    });
  }

  it("keeps both versions on a conflict and the candidates on an ambiguous reference", async () => {
    const t = new FakeTransport()
      .on("GET /api/v1/memories/c", () => json(409, { error: "conflict", detail: "d", expected_hash: "e1", actual_hash: "a1", current_text: "txt" }))
      .on("GET /api/v1/memories/a", () => json(409, { error: "ambiguous", detail: "d", candidates: ["id1", "id2"] }));
    const conflict = (await clientWith(t).memory("c").catch((e: unknown) => e)) as Conflict;
    expect([conflict.expectedHash, conflict.actualHash, conflict.currentText]).toEqual(["e1", "a1", "txt"]);
    const ambiguous = (await clientWith(t).memory("a").catch((e: unknown) => e)) as Ambiguous;
    expect(ambiguous.candidates).toEqual(["id1", "id2"]);
  });

  it("tells how to fix a refused token", async () => {
    const t = new FakeTransport().on("GET /api/v1/config", () => json(401, { error: "unauthorized", detail: "bad token" }));
    const error = await clientWith(t).config().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/token/);
  });

  it("reports an answer without JSON as a bad response naming the route", async () => {
    const t = new FakeTransport().on("GET /api/v1/config", () => ({ status: 200, headers: {}, text: "<html>proxy</html>" }));
    const error = (await clientWith(t).config().catch((e: unknown) => e)) as BackendError;
    expect(error.code).toBe("bad_response");
    expect(error.message).toContain("GET /api/v1/config");
  });

  it("uses a generic sentence when an error body is not JSON", async () => {
    const t = new FakeTransport().on("GET /api/v1/config", () => ({ status: 502, headers: {}, text: "Bad gateway" }));
    const error = (await clientWith(t).config().catch((e: unknown) => e)) as BackendError;
    expect(error.message).toBe("GET /api/v1/config failed with HTTP 502");
  });
});

describe("CortexClient without a backend", () => {
  it("reports a refused connection as the backend not running", async () => {
    const refused: Transport = {
      send: () => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:47613"), { code: "ECONNREFUSED" }) })),
    };
    const error = await clientWith(refused).health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendOffline);
    expect((error as Error).message).toContain("http://127.0.0.1:47613");
  });

  it("recognises Electron's wording of a refused connection", async () => {
    const refused: Transport = { send: () => Promise.reject(new Error("net::ERR_CONNECTION_REFUSED")) };
    expect(await clientWith(refused).health().catch((e: unknown) => e)).toBeInstanceOf(BackendOffline);
  });

  it("reports other network failures as unreachable, with the reason", async () => {
    const broken: Transport = { send: () => Promise.reject(new Error("certificate has expired")) };
    const error = await clientWith(broken).health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendUnreachable);
    expect((error as Error).message).toContain("certificate has expired");
  });

  it("gives up after the timeout when the backend never answers", async () => {
    const silent: Transport = { send: () => new Promise(() => undefined) };
    const started = Date.now();
    const error = await clientWith(silent, "t", 50).health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendTimeout);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("does not time out an answer that arrives in time", async () => {
    const slow: Transport = { send: () => new Promise((resolve) => setTimeout(() => resolve(json(200, { ok: true })), 20)) };
    expect(await clientWith(slow, "t", 500).health()).toBe(true);
  });
});
