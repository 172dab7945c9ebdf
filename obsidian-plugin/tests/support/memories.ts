// Builders for memory fixtures: name only what a test is about, the rest is a plausible default.

import type { GcResult, MemoryView, SearchHit } from "../../src/api/types";

let counter = 0;

export function aMemory(over: Partial<MemoryView> = {}): MemoryView {
  counter += 1;
  const title = over.title ?? `Memory ${counter}`;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, "0")}`,
    title,
    path: `_stm/${title}.md`,
    status: "active",
    content: `${title} content`,
    tags: [],
    entities: [],
    source: null,
    context: null,
    created: "2026-11-20T10:00:00Z",
    last_used: "2026-11-28T10:00:00Z",
    use_count: 2,
    use_days: 2,
    strength: 1,
    score: 0.5,
    age_days: 9,
    review_priority: 0,
    days_until_forgotten: 12,
    promotable: false,
    promote_reason: null,
    content_hash: "hash",
    promoted_at: null,
    review_count: 0,
    problems: [],
    relations: null,
    ...over,
  };
}

export function aHit(over: Partial<SearchHit> = {}): SearchHit {
  return {
    id: null,
    memory_id: null,
    title: "A note",
    path: "Notes/A note.md",
    source: "note",
    status: null,
    content: "text",
    tags: [],
    score: 0.4,
    similarity: 0.4,
    memory_score: null,
    use_count: null,
    last_used: null,
    created_at: null,
    age_days: null,
    review_priority: 0,
    review_candidate: false,
    matched: [],
    superseded_by: [],
    valid_until: null,
    supersedes: [],
    explain: null,
    ...over,
  };
}

export function aGcResult(over: Partial<GcResult> = {}): GcResult {
  return {
    success: true,
    dry_run: true,
    removed_count: 0,
    archived_count: 0,
    freed_score_sum: 0,
    memory_ids: [],
    total_affected: 0,
    candidates: [],
    skipped: [],
    commit: null,
    message: "nothing to forget",
    ...over,
  };
}

export const NOW = new Date("2026-11-29T12:00:00Z");
