// The outcome of the last sync, kept for the status bar: the sync command records it, and a
// sync run elsewhere (the CLI, an assistant) is picked up from the daemon's record; views listen
// for the change.

import { Events, type EventRef } from "obsidian";
import { outcomeOf, type SyncOutcome } from "../model/sync-status";
import type { Backend } from "./backend";

export class SyncState extends Events {
  private outcome: SyncOutcome | null = null;
  // The whole record, not its time: times are whole seconds, and two syncs can share one.
  private reportedKey: string | null = null;

  /** Ask the daemon for its last sync; a newer one than last seen becomes the outcome. */
  async refresh(backend: Backend): Promise<void> {
    let reported: SyncOutcome | null;
    try {
      reported = outcomeOf(await backend.run((c) => c.lastSync()));
    } catch {
      return; // the connection state says why; an older daemon has no record to give
    }
    // Each record once: a sync this plugin ran comes back here saying what is already shown.
    if (!reported?.at) return;
    const key = JSON.stringify(reported);
    if (key === this.reportedKey) return;
    this.reportedKey = key;
    this.record(reported);
  }

  get last(): SyncOutcome | null {
    return this.outcome;
  }

  record(outcome: SyncOutcome): void {
    this.outcome = outcome;
    this.trigger("changed", outcome);
  }

  onChanged(callback: (outcome: SyncOutcome) => void): EventRef {
    return this.on("changed", (outcome) => callback(outcome as SyncOutcome));
  }
}
