// The daemon's response bodies, mirroring the pydantic models in
// cortexgraph_vault/models/memory.py field for field. Times are ISO-8601 UTC strings.

export interface RelationView {
  id: string;
  from_memory_id: string | null;
  to_memory_id: string | null;
  relation_type: string;
  target: string;
  strength: number;
  metadata: Record<string, string>;
}

export interface Relations {
  outgoing: RelationView[];
  incoming: RelationView[];
}

export interface MemoryView {
  id: string | null;
  title: string;
  path: string;
  /** active | promoted | archived */
  status: string;
  content: string;
  tags: string[];
  entities: string[];
  source?: string | null;
  context?: string | null;
  created: string;
  last_used: string;
  use_count: number;
  strength: number;
  score?: number | null;
  age_days: number;
  review_priority: number;
  days_until_forgotten?: number | null;
  promotable: boolean;
  promote_reason?: string | null;
  content_hash: string;
  promoted_at?: string | null;
  review_count: number;
  problems: string[];
  relations?: Relations | null;
}

export interface Backlink {
  path: string;
  title: string;
  memory_id?: string | null;
}

/** GET /api/v1/memories/{ref} and /lookup: a memory with its relations and backlinks. */
export interface MemoryDetail extends MemoryView {
  backlinks: Backlink[];
  /** Uses from now after which it is promoted (0: promotable now); null when out of reach. */
  uses_to_promote?: number | null;
  /** Days left in which enough uses promote it (use-count rule); null once over. */
  promote_window_days_left?: number | null;
}

export interface Pagination {
  page: number;
  page_size: number;
  total_count: number;
  total_pages: number;
  has_more: boolean;
  has_previous: boolean;
}

export interface MemoryList {
  memories: MemoryView[];
  pagination: Pagination;
}

export interface TouchResult {
  success: boolean;
  memory_id: string;
  id: string;
  path: string;
  old_score: number;
  new_score: number;
  use_count: number;
  strength: number;
}

export interface ForgetCandidate {
  id: string | null;
  title: string;
  path: string;
  score: number;
  use_count: number;
  age_days: number;
}

export interface Skipped {
  path: string;
  reason: string;
}

export interface GcResult {
  success: boolean;
  dry_run: boolean;
  removed_count: number;
  archived_count: number;
  freed_score_sum: number;
  memory_ids: string[];
  total_affected: number;
  candidates: ForgetCandidate[];
  skipped: Skipped[];
  commit?: string | null;
  message: string;
}

export interface PromoteCandidate {
  id: string | null;
  title: string;
  path: string;
  preview: string;
  reason: string;
  score: number;
  use_count: number;
  age_days: number;
}

export interface PromoteResult {
  success: boolean;
  dry_run: boolean;
  candidates_found: number;
  promoted_count: number;
  promoted_ids: string[];
  candidates: PromoteCandidate[];
  /** old path → new path */
  moved: Record<string, string>;
  commit?: string | null;
  message: string;
}

export interface CommitView {
  sha: string;
  short: string;
  time: string;
  author: string;
  summary: string;
  change: string;
  path: string | null;
}

export interface HistoryResult {
  memory_id: string;
  path: string | null;
  exists: boolean;
  commits: CommitView[];
}

export interface VersionResult {
  memory_id: string;
  commit: string;
  path: string;
  text: string;
}

export interface RestoreResult {
  success: boolean;
  memory_id: string;
  path: string;
  restored_from: string;
  commit?: string | null;
  message: string;
}

export interface ForgottenView {
  id: string;
  title: string;
  path: string;
  deleted_in: string | null; // null when archived (still in the archive folder)
  kind?: "deleted" | "archived";
  deleted_at: string;
  preview: string;
}

export interface SearchHit {
  id: string | null;
  memory_id: string | null;
  title: string;
  path: string;
  /** stm (short-term memory), ltm (promoted memory) or note */
  source: string;
  status: string | null;
  content: string;
  tags: string[];
  score: number;
  similarity: number;
  memory_score?: number | null;
  use_count?: number | null;
  last_used?: string | null;
  created_at?: string | null;
  age_days?: number | null;
  review_priority: number;
  review_candidate: boolean;
  matched: string[];
}

export interface SearchResult {
  success: boolean;
  count: number;
  results: SearchHit[];
  pagination?: Pagination | null;
}

export interface SettingView {
  name: string;
  env: string;
  value: unknown;
  origin: string;
  help: string;
}

export interface ConfigResult {
  settings: SettingView[];
}

/** The body of every error response. */
export interface ErrorBody {
  error: string;
  detail: string;
  expected_hash?: string;
  actual_hash?: string;
  current_text?: string;
  candidates?: string[];
}

/** `POST /api/v1/sync`: this device's memories and the other devices', through the git remote. */
export interface SyncResult {
  remote: string;
  branch: string;
  recorded: number;
  received: number;
  sent: number;
  merged_count: number;
  merged: string[];
  conflicted: string[];
  /** How many notes need a person; older backends leave it out. */
  conflicts?: number;
  /** This device's name, and the devices (else the remote) what came in was made on. */
  device?: string;
  sources?: string[];
  commit: string | null;
  up_to_date: boolean;
  message: string;
}

/** `GET /api/v1/sync`: the last sync on this device; `at` null when there was none. */
export interface LastSync {
  at: string | null;
  ok: boolean;
  result: SyncResult | null;
  error: string | null;
}
