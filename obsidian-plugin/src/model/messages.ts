// Sentences for notices: what happened, in words a person can act on.

import { BackendError } from "../api/errors";
import type { GcResult, PromoteResult, TouchResult, UpdateResult } from "../api/types";
import { formatScore, plural } from "./format";

export function describeError(error: unknown): string {
  if (error instanceof BackendError) return error.message;
  if (error instanceof Error) return `Unexpected error: ${error.message}`;
  return `Unexpected error: ${String(error)}`;
}

export function reinforcedMessage(title: string, result: TouchResult): string {
  return `Reinforced "${title}": score ${formatScore(result.old_score)} → ${formatScore(result.new_score)}, used ${plural(result.use_count, "time")}`;
}

export function supersededMessage(title: string, oldTitle: string, result: UpdateResult): string {
  if (result.superseded.length === 0) return `"${title}" already replaces "${oldTitle}"`;
  const moved = result.path.startsWith("_stm/") ? "" : ` (promoted to ${result.path}, where "${oldTitle}" was)`;
  return `"${title}" replaces "${oldTitle}"${moved}`;
}

export function promotedMessage(title: string, result: PromoteResult): string {
  if (result.dry_run) return result.message;
  const moved = Object.values(result.moved);
  if (result.promoted_count > 0 && moved.length === 1) return `Promoted "${title}" to ${moved[0]}`;
  if (result.promoted_count > 0) return `Promoted ${plural(result.promoted_count, "memory", "memories")}`;
  return result.message;
}

export function gcMessage(result: GcResult): string {
  const skipped = result.skipped.length ? `; ${plural(result.skipped.length, "open note")} left alone` : "";
  if (result.total_affected === 0) return `Nothing to forget${skipped}`;
  const verb = result.archived_count > 0 ? "Archived" : "Forgot";
  const count = result.archived_count > 0 ? result.archived_count : result.removed_count;
  const commit = result.commit ? ` (commit ${result.commit.slice(0, 7)})` : "";
  return `${verb} ${plural(count, "memory", "memories")}${commit}${skipped}`;
}

/** Why gc would forget a memory, for the preview list. */
export function forgetReason(score: number, forget: number, useCount: number, ageDays: number): string {
  return `Score ${formatScore(score)} is below ${forget}; used ${plural(useCount, "time")} in ${plural(Math.floor(ageDays), "day")}`;
}
