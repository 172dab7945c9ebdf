// "Sync memories with the git remote": one sync through the daemon (record this device's uses,
// fetch, merge memories field by field, push), and what it did as a notice.

import type { Command } from "obsidian";
import type { SyncResult } from "../api/types";
import type { Backend } from "../backend/backend";
import type { SyncState } from "../backend/sync-state";
import { describeError } from "../model/messages";

export function syncMessage(result: SyncResult): string {
  if (result.conflicted.length === 0) return result.message;
  return `${result.message}. Edited on two devices, to resolve: ${result.conflicted.join(", ")}`;
}

export async function runSync(
  backend: Backend,
  notify: (message: string) => void,
  state?: SyncState,
): Promise<SyncResult | null> {
  try {
    const result = await backend.run((c) => c.sync());
    notify(syncMessage(result));
    state?.record({ kind: "synced", result });
    if (!result.up_to_date) backend.notifyChanged();
    return result;
  } catch (error) {
    const reason = describeError(error);
    notify(`Sync failed: ${reason}`);
    state?.record({ kind: "failed", reason });
    return null;
  }
}

export function syncCommand(backend: Backend, notify: (message: string) => void, state?: SyncState): Command {
  return {
    id: "sync-memories",
    name: "Sync memories with the git remote",
    callback: () => void runSync(backend, notify, state),
  };
}
