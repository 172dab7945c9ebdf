// The daemon's REST API (/api/v1), one method per route. Every call has a timeout, sends the
// bearer token, and turns each failure into a typed error from ./errors. Queries and bodies are
// checked (`satisfies`) against the types generated from docs/openapi.json.

import {
  BackendError,
  BackendOffline,
  BackendTimeout,
  BackendUnreachable,
  NotFound,
  errorFromResponse,
} from "./errors";
import { isRefused, type HttpMethod, type Transport, type TransportResponse } from "./transport";
import type {
  ErrorBody,
  ForgottenList,
  ForgottenQuery,
  ForgottenView,
  Gc,
  GcResult,
  Health,
  HistoryResult,
  ListMemoriesQuery,
  ListSort,
  ListStatus,
  LookupMemoryQuery,
  MemoryDetail,
  MemoryHistoryQuery,
  MemoryList,
  MemoryView,
  PromoteAll,
  PromoteOne,
  PromoteResult,
  RelatedQuery,
  Restore,
  RestoreResult,
  SearchQuery,
  SearchResult,
  SettingsList,
  Sync,
  SyncResult,
  LastSync,
  Touch,
  TouchResult,
  UpdateMemory,
  UpdateResult,
  VersionResult,
} from "./types";

export const DEFAULT_TIMEOUT_MS = 10_000;
/** gc and promotion write and commit many files; give them longer than a read. */
export const WRITE_TIMEOUT_MS = 60_000;
/** A sync fetches and pushes over the network besides merging. */
export const SYNC_TIMEOUT_MS = 180_000;
const PAGE_SIZE = 100;
const MAX_LISTED = 2_000;

export interface Timers {
  setTimeout(callback: () => void, ms: number): number | ReturnType<typeof setTimeout>;
  clearTimeout(handle: number | ReturnType<typeof setTimeout> | undefined): void;
}

export interface ClientOptions {
  baseUrl: string;
  /** Read on every call so a token changed in settings applies at once. */
  token: () => string | null;
  transport: Transport;
  timeoutMs?: number;
  timers: Timers;
}

export interface GcOptions {
  dryRun: boolean;
  archiveInstead?: boolean;
  limit?: number;
  /** Vault paths open in editor tabs: the backend leaves them alone. */
  skipPaths?: string[];
}

type Query = Record<string, string | number | undefined>;

export class CortexClient {
  private readonly baseUrl: string;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
  }

  /** Whether a daemon answers at all (no token needed). */
  async health(): Promise<boolean> {
    const body = await this.call<Partial<Health>>("GET", "/health");
    return body.ok === true;
  }

  listMemories(options: { status?: ListStatus; sort?: ListSort; tag?: string; page?: number; pageSize?: number } = {}): Promise<MemoryList> {
    return this.call("GET", "/api/v1/memories", {
      query: {
        status: options.status,
        sort: options.sort,
        tag: options.tag,
        page: options.page,
        page_size: options.pageSize,
      } satisfies ListMemoriesQuery,
    });
  }

  /** Every memory with `status`, following pages (bounded, so a huge vault cannot hang the view). */
  async allMemories(status: ListStatus = "all", sort: ListSort = "score"): Promise<MemoryView[]> {
    const out: MemoryView[] = [];
    for (let page = 1; out.length < MAX_LISTED; page++) {
      const result = await this.listMemories({ status, sort, page, pageSize: PAGE_SIZE });
      out.push(...result.memories);
      if (!result.pagination?.has_more || result.memories.length === 0) break;
    }
    return out;
  }

  /** The memory stored at a vault path, or null when that file is not a memory. */
  async lookup(path: string): Promise<MemoryDetail | null> {
    try {
      return await this.call<MemoryDetail>("GET", "/api/v1/memories/lookup", { query: { path } satisfies LookupMemoryQuery });
    } catch (error) {
      if (error instanceof NotFound) return null;
      throw error;
    }
  }

  memory(ref: string): Promise<MemoryDetail> {
    return this.call("GET", `/api/v1/memories/${segment(ref)}`);
  }

  touch(ref: string, boost = false): Promise<TouchResult> {
    return this.call("POST", `/api/v1/memories/${segment(ref)}/touch`, { body: { boost } satisfies Touch });
  }

  /** Record that the memory `ref` replaces the memories `olds` (no longer true). */
  supersede(ref: string, olds: string[]): Promise<UpdateResult> {
    return this.call("PATCH", `/api/v1/memories/${segment(ref)}`, {
      body: { supersedes: olds } satisfies UpdateMemory,
      timeoutMs: WRITE_TIMEOUT_MS,
    });
  }

  promote(ref: string, options: { dryRun?: boolean; force?: boolean } = {}): Promise<PromoteResult> {
    return this.call("POST", `/api/v1/memories/${segment(ref)}/promote`, {
      body: { dry_run: options.dryRun ?? false, force: options.force ?? false } satisfies PromoteOne,
      timeoutMs: WRITE_TIMEOUT_MS,
    });
  }

  promoteCandidates(dryRun: boolean): Promise<PromoteResult> {
    return this.call("POST", "/api/v1/promote", { body: { dry_run: dryRun } satisfies PromoteAll, timeoutMs: WRITE_TIMEOUT_MS });
  }

  gc(options: GcOptions): Promise<GcResult> {
    const body: Gc = {
      dry_run: options.dryRun,
      archive_instead: options.archiveInstead ?? false,
      skip_paths: options.skipPaths ?? [],
    };
    if (options.limit !== undefined) body.limit = options.limit;
    return this.call("POST", "/api/v1/gc", { body, timeoutMs: WRITE_TIMEOUT_MS });
  }

  search(q: string, limit = 20): Promise<SearchResult> {
    return this.call("GET", "/api/v1/search", { query: { q, limit } satisfies SearchQuery });
  }

  /** The memories and notes most related to the note at `path` (vault-relative), best first. */
  related(path: string, limit = 10): Promise<SearchResult> {
    return this.call("GET", "/api/v1/related", { query: { path, limit } satisfies RelatedQuery });
  }

  history(ref: string, limit = 50): Promise<HistoryResult> {
    return this.call("GET", `/api/v1/memories/${segment(ref)}/history`, { query: { limit } satisfies MemoryHistoryQuery });
  }

  version(ref: string, commit: string): Promise<VersionResult> {
    return this.call("GET", `/api/v1/memories/${segment(ref)}/versions/${segment(commit)}`);
  }

  restore(ref: string, commit?: string): Promise<RestoreResult> {
    return this.call("POST", `/api/v1/memories/${segment(ref)}/restore`, {
      body: (commit ? { commit } : {}) satisfies Restore,
      timeoutMs: WRITE_TIMEOUT_MS,
    });
  }

  sync(remote?: string): Promise<SyncResult> {
    return this.call("POST", "/api/v1/sync", { body: (remote ? { remote } : {}) satisfies Sync, timeoutMs: SYNC_TIMEOUT_MS });
  }

  /** The last sync of the vault on this device, whoever ran it (the CLI, an assistant, us). */
  lastSync(): Promise<LastSync> {
    return this.call("GET", "/api/v1/sync");
  }

  async forgotten(limit = 100): Promise<ForgottenView[]> {
    const body = await this.call<ForgottenList>("GET", "/api/v1/forgotten", { query: { limit } satisfies ForgottenQuery });
    return body.forgotten;
  }

  config(): Promise<SettingsList> {
    return this.call("GET", "/api/v1/config");
  }

  private async call<T>(
    method: HttpMethod,
    path: string,
    extra: { query?: Query; body?: unknown; timeoutMs?: number } = {},
  ): Promise<T> {
    const url = this.baseUrl + path + queryString(extra.query);
    const headers: Record<string, string> = { Accept: "application/json" };
    const token = this.options.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (extra.body !== undefined) {
      body = JSON.stringify(extra.body);
      headers["Content-Type"] = "application/json";
    }
    const timeoutMs = extra.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const response = await this.withTimeout(url, timeoutMs, async () => {
      try {
        return await this.options.transport.send({ method, url, headers, body });
      } catch (error) {
        if (isRefused(error)) throw new BackendOffline(this.baseUrl);
        throw new BackendUnreachable(this.baseUrl, error instanceof Error ? error.message : String(error));
      }
    });
    return parse<T>(response, `${method} ${path}`);
  }

  // requestUrl cannot be aborted, so a slow answer is abandoned rather than cancelled.
  private withTimeout<R>(url: string, ms: number, run: () => Promise<R>): Promise<R> {
    const { timers } = this.options;
    let handle: ReturnType<Timers["setTimeout"]> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      handle = timers.setTimeout(() => reject(new BackendTimeout(url, ms)), ms);
    });
    return Promise.race([run(), timeout]).finally(() => timers.clearTimeout(handle));
  }
}

function segment(value: string): string {
  return encodeURIComponent(value);
}

function queryString(query: Query | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function parse<T>(response: TransportResponse, what: string): T {
  let body: unknown = null;
  if (response.text) {
    try {
      body = JSON.parse(response.text);
    } catch {
      body = null;
    }
  }
  if (response.status >= 400) {
    throw errorFromResponse(
      response.status,
      body as Partial<ErrorBody> | null,
      `${what} failed with HTTP ${response.status}`,
    );
  }
  if (body === null || typeof body !== "object") {
    throw new BackendError(`${what}: the backend answered HTTP ${response.status} without JSON`, response.status, "bad_response");
  }
  return body as T;
}
