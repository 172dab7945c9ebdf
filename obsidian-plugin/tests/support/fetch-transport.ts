// The tests' transport: Node's fetch, standing in for Obsidian's requestUrl (both bypass CORS
// and hand back every status). Errors keep their cause so "connection refused" is recognisable.

import type { Transport, TransportRequest, TransportResponse } from "../../src/api/transport";

export const fetchTransport: Transport = {
  async send(request: TransportRequest): Promise<TransportResponse> {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => (headers[key] = value));
    return { status: response.status, headers, text: await response.text() };
  },
};
