// A transport that answers from a route table and records every request, for unit tests.

import type { Transport, TransportRequest, TransportResponse } from "../../src/api/transport";

export type Route = (request: TransportRequest, url: URL) => TransportResponse | Promise<TransportResponse>;

export function json(status: number, body: unknown): TransportResponse {
  return { status, headers: { "content-type": "application/json" }, text: JSON.stringify(body) };
}

export class FakeTransport implements Transport {
  readonly requests: TransportRequest[] = [];
  private routes: [string, Route][] = [];

  /** `key` is "METHOD /path" (no query); later routes win. */
  on(key: string, route: Route): this {
    this.routes.unshift([key, route]);
    return this;
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    this.requests.push(request);
    const url = new URL(request.url);
    const key = `${request.method} ${url.pathname}`;
    const found = this.routes.find(([k]) => k === key);
    if (!found) return json(404, { error: "not_found", detail: `no route ${key}` });
    return found[1](request, url);
  }

  paths(): string[] {
    return this.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`);
  }
}

/** Node's timers in the shape the client wants. */
export const nodeTimers = {
  setTimeout: (cb: () => void, ms: number) => setTimeout(cb, ms),
  clearTimeout: (handle: number | ReturnType<typeof setTimeout> | undefined) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
