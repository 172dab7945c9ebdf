// A Backend over the fake transport, with the routes most UI tests need.

import { Backend } from "../../src/backend/backend";
import type { MemoryView } from "../../src/api/types";
import { FakeTransport, json, nodeTimers } from "./fake-transport";

export function backendOver(transport: FakeTransport, token: string | null = "t"): Backend {
  return new Backend({ baseUrl: "http://127.0.0.1:47613", token: () => token, timeoutMs: 1_000 }, transport, nodeTimers);
}

/** Serves `memories` from GET /api/v1/memories (one page) and a default config. */
export function servingMemories(memories: () => MemoryView[]): FakeTransport {
  return new FakeTransport()
    .on("GET /health", () => json(200, { ok: true }))
    .on("GET /api/v1/config", () => json(200, { settings: [] }))
    .on("GET /api/v1/memories", (_r, url) => {
      const status = url.searchParams.get("status") ?? "all";
      const shown = memories().filter((m) => status === "all" || m.status === status);
      return json(200, {
        memories: shown,
        pagination: { page: 1, page_size: 100, total_count: shown.length, total_pages: 1, has_more: false, has_previous: false },
      });
    });
}

export const refusedTransport = (): FakeTransport => {
  const t = new FakeTransport();
  t.send = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:47613"), { code: "ECONNREFUSED" }));
  return t;
};
