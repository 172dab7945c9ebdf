// The app's transport: Obsidian's requestUrl, which is not subject to CORS (the daemon sends no
// CORS headers) and, with `throw: false`, hands back every status for the client to map.

import { requestUrl } from "obsidian";
import type { Transport, TransportRequest, TransportResponse } from "./transport";

export const requestUrlTransport: Transport = {
  async send(request: TransportRequest): Promise<TransportResponse> {
    const response = await requestUrl({
      url: request.url,
      method: request.method,
      headers: request.headers,
      body: request.body,
      contentType: request.headers["Content-Type"],
      throw: false,
    });
    return { status: response.status, headers: response.headers, text: response.text };
  },
};
