// How the client reaches the daemon. In the app this is Obsidian's `requestUrl` (which skips
// CORS and runs outside the page); tests plug in Node's fetch. A transport returns every HTTP
// status as a response and throws only when no response came back at all.

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface TransportRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
}

/** No HTTP response: `refused` means nothing listens on the port (the backend is not running). */
export class TransportFailure extends Error {
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
    this.name = "TransportFailure";
  }
}

// Electron's net module and Node's sockets word a refused connection differently.
const REFUSED = /ECONNREFUSED|ERR_CONNECTION_REFUSED|ECONNRESET|ERR_CONNECTION_RESET|ERR_ADDRESS_UNREACHABLE|EHOSTUNREACH|ERR_CONNECTION_CLOSED|ERR_EMPTY_RESPONSE/;

/** Whether an error thrown by a transport means "nobody is listening". */
export function isRefused(error: unknown): boolean {
  if (error instanceof TransportFailure) return error.refused;
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current instanceof Error) {
      parts.push(current.message);
      const code = (current as { code?: unknown }).code;
      if (typeof code === "string") parts.push(code);
      current = (current as { cause?: unknown }).cause;
    } else {
      if (typeof current === "string") parts.push(current);
      break;
    }
  }
  return REFUSED.test(parts.join(" "));
}
