// Which memories the view lists, and in what order. Sorting is by live score, highest first:
// what is strongest in memory stands at the top, what is about to go at the bottom.

import type { ListStatus, MemoryView, SearchHit } from "../api/types";
import type { Thresholds } from "./backend-config";
import { chipFor, type ChipKind } from "./chip";

/** Which chips to show: everything, or one group that needs attention. */
export type ShowFilter = "everything" | "fading" | "promotable" | "forgetting";

export interface ListFilter {
  status: ListStatus;
  show: ShowFilter;
}

export const DEFAULT_FILTER: ListFilter = { status: "active", show: "everything" };

const SHOWN: Record<ShowFilter, ChipKind[] | null> = {
  everything: null,
  fading: ["fading"],
  promotable: ["promotable"],
  forgetting: ["forgetting"],
};

export function byScore(a: MemoryView, b: MemoryView): number {
  const diff = (b.score ?? -1) - (a.score ?? -1);
  return diff !== 0 ? diff : a.title.localeCompare(b.title);
}

export function visibleMemories(memories: MemoryView[], filter: ListFilter, thresholds: Thresholds): MemoryView[] {
  const kinds = SHOWN[filter.show];
  return memories
    .filter((m) => filter.status === "all" || m.status === filter.status)
    .filter((m) => kinds === null || kinds.includes(chipFor(m, thresholds).kind))
    .sort(byScore);
}

/** Local text match, used when the backend has no unified search to offer. */
export function matchesText(memory: MemoryView, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [memory.title, memory.content, ...memory.tags, ...memory.entities].join(" ").toLowerCase();
  return words.every((w) => haystack.includes(w));
}

/** A search result row: the full memory when the hit is one we have listed, else the bare hit. */
export type ResultRow = { kind: "memory"; memory: MemoryView } | { kind: "note"; hit: SearchHit };

export function resultRows(hits: SearchHit[], memories: MemoryView[]): ResultRow[] {
  const byId = new Map(memories.filter((m) => m.id).map((m) => [m.id, m]));
  const byPath = new Map(memories.map((m) => [m.path, m]));
  return hits.map((hit) => {
    const memory = (hit.id ? byId.get(hit.id) : undefined) ?? byPath.get(hit.path);
    return memory ? { kind: "memory", memory } : { kind: "note", hit };
  });
}
