// Which state a memory is in, as a person would name it: the chip on each row.

import type { MemoryView } from "../api/types";
import type { Thresholds } from "./backend-config";

export type ChipKind = "fresh" | "active" | "fading" | "promotable" | "forgetting" | "promoted" | "archived";

export interface Chip {
  kind: ChipKind;
  label: string;
  /** A sentence for the tooltip: why the memory has this chip. */
  reason: string;
}

/** A memory saved less than this long ago, and not yet reused, is fresh. */
const FRESH_DAYS = 1;
/** A memory whose score will cross the forget line within this many days is about to go. */
const FORGETTING_DAYS = 1;

export function chipFor(memory: MemoryView, thresholds: Thresholds): Chip {
  if (memory.status === "promoted") {
    return { kind: "promoted", label: "Promoted", reason: "Promoted into the vault: kept for good, no longer decays" };
  }
  if (memory.status === "archived") {
    return { kind: "archived", label: "Archived", reason: "Archived: out of short-term memory, can be restored" };
  }
  const score = memory.score ?? null;
  const until = memory.days_until_forgotten ?? null;
  if ((score !== null && score < thresholds.forget) || (until !== null && until <= FORGETTING_DAYS)) {
    const when = score !== null && score < thresholds.forget ? "the next garbage collection" : "within a day";
    return {
      kind: "forgetting",
      label: "About to be forgotten",
      reason: `Score is at or near the forget line (${thresholds.forget}); it will be forgotten by ${when} unless it is used`,
    };
  }
  if (memory.promotable) {
    return {
      kind: "promotable",
      label: "Promotable",
      reason: memory.promote_reason ? `Ready for promotion: ${memory.promote_reason}` : "Ready for promotion",
    };
  }
  if (score !== null && score <= thresholds.dangerMax) {
    return {
      kind: "fading",
      label: "Fading",
      reason: `In the danger zone (score ${thresholds.dangerMin}–${thresholds.dangerMax}): use it or it will be forgotten`,
    };
  }
  if (memory.age_days < FRESH_DAYS && memory.use_count <= 1) {
    return { kind: "fresh", label: "Fresh", reason: "Saved less than a day ago and not used since" };
  }
  return { kind: "active", label: "Active", reason: "In short-term memory and doing well" };
}

/** How full the decay bar is: the score as a fraction of 1 (scores above 1 fill the bar). */
export function barFraction(memory: MemoryView): number {
  const score = memory.score ?? 0;
  if (!Number.isFinite(score) || score <= 0) return 0;
  return Math.min(1, score);
}
