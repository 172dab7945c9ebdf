// The outcome of the last sync, kept for the status bar: the sync command records it, views
// listen for the change.

import { Events, type EventRef } from "obsidian";
import type { SyncOutcome } from "../model/sync-status";

export class SyncState extends Events {
  private outcome: SyncOutcome | null = null;

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
