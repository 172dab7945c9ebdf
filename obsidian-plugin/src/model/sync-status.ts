// What the status bar says about the last sync: what came in and from which device, that all was
// already in step, or why it failed.

import type { LastSync, SyncResult } from "../api/types";
import { plural } from "./format";

/** `at`: when the daemon recorded it (a sync reported by the daemon rather than run here). */
export type SyncOutcome =
  | { kind: "synced"; result: SyncResult; at?: string }
  | { kind: "failed"; reason: string; at?: string };

/** The daemon's record as an outcome; null when there was no sync. */
export function outcomeOf(last: LastSync): SyncOutcome | null {
  if (!last.at) return null;
  if (last.ok && last.result) return { kind: "synced", result: last.result, at: last.at };
  return { kind: "failed", reason: last.error ?? "unknown reason", at: last.at };
}

export interface SyncStatus {
  text: string;
  tooltip: string;
}

/** Longest failure reason shown in the bar itself; the tooltip has all of it. */
const SHORT_REASON = 60;

function names(list: string[]): string {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

export function syncStatus(outcome: SyncOutcome): SyncStatus {
  if (outcome.kind === "failed") {
    const first = (outcome.reason.split(";")[0] ?? "").trim();
    const short = first.length > SHORT_REASON ? `${first.slice(0, SHORT_REASON - 1)}…` : first;
    return { text: `Sync failed: ${short}`, tooltip: `Sync failed: ${outcome.reason}` };
  }
  const r = outcome.result;
  if (r.up_to_date) return { text: "Memories up to date", tooltip: r.message };
  const from = names(r.sources && r.sources.length ? r.sources : [r.remote]);
  const conflicts = r.conflicts ?? r.conflicted.length;
  const parts: string[] = [];
  if (r.received > 0) parts.push(`${plural(r.merged_count, "memory", "memories")} merged from ${from}`);
  if (r.sent > 0) parts.push(`${plural(r.sent, "change")} sent`);
  if (conflicts > 0) parts.push(`${conflicts} to resolve`);
  return { text: parts.join(" · "), tooltip: r.message };
}
