// Whether the backend can be used, as the view and the status bar show it.

import { BackendOffline, BackendTimeout, BackendUnreachable, Unauthorized } from "../api/errors";

export type ConnectionState =
  | { kind: "unknown" }
  | { kind: "online" }
  | { kind: "offline"; message: string }
  | { kind: "unauthorized"; message: string }
  | { kind: "error"; message: string };

/** The state a failed call leaves the connection in, or null when the failure was the request's own. */
export function stateAfter(error: unknown): ConnectionState | null {
  if (error instanceof BackendOffline) return { kind: "offline", message: error.message };
  if (error instanceof BackendTimeout || error instanceof BackendUnreachable) {
    return { kind: "error", message: error.message };
  }
  if (error instanceof Unauthorized) return { kind: "unauthorized", message: error.message };
  return null;
}

export function isUsable(state: ConnectionState): boolean {
  return state.kind === "online" || state.kind === "unknown";
}
