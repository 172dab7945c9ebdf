// Every way a call to the daemon can fail, as types a caller can match on. The client maps
// each HTTP status once (REST contract: /work/briefs/rest-api.md); the UI decides what to show.

import type { ErrorBody } from "./types";

export class BackendError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Nothing answers at the backend URL: a state to show, not an error to toast. */
export class BackendOffline extends BackendError {
  constructor(readonly url: string) {
    super(`The backend is not running at ${url}. Start it with: cortexgraph-vault serve`, 0, "offline");
  }
}

export class BackendTimeout extends BackendError {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`The backend did not answer ${url} within ${Math.round(timeoutMs / 1000)} s`, 0, "timeout");
  }
}

/** The request never got an answer for another reason than a refused connection. */
export class BackendUnreachable extends BackendError {
  constructor(url: string, reason: string) {
    super(`Could not reach the backend at ${url}: ${reason}`, 0, "unreachable");
  }
}

/** 401: no token, or not the daemon's token. */
export class Unauthorized extends BackendError {}
/** 403 (origin refused) and 421 (host refused). */
export class Refused extends BackendError {}
export class NotFound extends BackendError {}
/** 400, 413 and 422: the request was wrong; the detail says which argument and why. */
export class InvalidRequest extends BackendError {}
/** 501: the backend does not offer this yet. */
export class NotAvailable extends BackendError {}
/** 503: git or the vault lock is busy; trying again later helps. */
export class BackendBusy extends BackendError {}

export class Conflict extends BackendError {
  constructor(
    message: string,
    status: number,
    code: string,
    readonly expectedHash?: string,
    readonly actualHash?: string,
    readonly currentText?: string,
  ) {
    super(message, status, code);
  }
}

export class Ambiguous extends BackendError {
  constructor(
    message: string,
    status: number,
    code: string,
    readonly candidates: string[],
  ) {
    super(message, status, code);
  }
}

/** The typed error for an HTTP error response (status ≥ 400). */
export function errorFromResponse(status: number, body: Partial<ErrorBody> | null, fallback: string): BackendError {
  const code = typeof body?.error === "string" ? body.error : `http_${status}`;
  const detail = typeof body?.detail === "string" && body.detail ? body.detail : fallback;
  switch (status) {
    case 400:
    case 413:
    case 422:
      return new InvalidRequest(detail, status, code);
    case 401:
      return new Unauthorized(
        "The backend refused the token. Copy the token of the running backend into this plugin's settings.",
        status,
        code,
      );
    case 403:
    case 421:
      return new Refused(detail, status, code);
    case 404:
      return new NotFound(detail, status, code);
    case 409:
      if (Array.isArray(body?.candidates)) return new Ambiguous(detail, status, code, body.candidates);
      // The daemon sends null for a hash it does not know; the error carries "absent" alike.
      return new Conflict(
        detail,
        status,
        code,
        body?.expected_hash ?? undefined,
        body?.actual_hash ?? undefined,
        body?.current_text ?? undefined,
      );
    case 501:
      return new NotAvailable(detail, status, code);
    case 503:
      return new BackendBusy(detail, status, code);
    default:
      return new BackendError(detail, status, code);
  }
}

/** True for failures that mean "no backend to talk to" rather than "this request failed". */
export function isConnectionProblem(error: unknown): boolean {
  return error instanceof BackendOffline || error instanceof BackendTimeout || error instanceof BackendUnreachable;
}
