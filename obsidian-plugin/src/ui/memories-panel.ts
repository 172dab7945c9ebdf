// The body of the Memories view: toolbar (search, filters), summary and rows. It loads through
// the Backend, redraws on the backend's "changed" event, and keeps no state the server owns.

import { Component, debounce } from "obsidian";
import { NotAvailable, isConnectionProblem } from "../api/errors";
import type { ListStatus, MemoryView, SearchHit } from "../api/types";
import type { MemoryActions } from "../actions/memory-actions";
import type { Backend } from "../backend/backend";
import { RelatedNotes, type ActiveNote, type RelatedOptions } from "../backend/related-notes";
import { chipFor } from "../model/chip";
import type { ConnectionState } from "../model/connection";
import { plural } from "../model/format";
import { describeError } from "../model/messages";
import {
  DEFAULT_FILTER,
  matchesText,
  resultRows,
  visibleMemories,
  type ListFilter,
  type ShowFilter,
} from "../model/memory-filter";
import { renderHitRow, renderMemoryRow, type RowHandlers } from "./memory-row";
import { RelatedSection } from "./related-section";

export interface PanelDeps {
  backend: Backend;
  actions: MemoryActions;
  now: () => Date;
  showHistory: (memory: MemoryView) => void;
  /** Promote, asking first when the rules do not ask for it yet. */
  promote: (memory: MemoryView) => Promise<unknown>;
  /** Pick the memory `memory` replaces and record it. */
  supersede?: (memory: MemoryView) => void;
  openSettings?: () => void;
  /** The active file: with it, the view shows what is related to that note. */
  activeNote?: ActiveNote;
  relatedOptions?: RelatedOptions;
}

const STATUS_OPTIONS: Record<ListStatus, string> = {
  active: "Short-term",
  promoted: "Promoted",
  archived: "Archived",
  all: "All memories",
};

const SHOW_OPTIONS: Record<ShowFilter, string> = {
  everything: "Everything",
  fading: "Fading",
  promotable: "Promotable",
  forgetting: "About to be forgotten",
};

export class MemoriesPanel extends Component {
  private memories: MemoryView[] = [];
  private loaded = false;
  private failure: string | null = null;
  private filter: ListFilter = { ...DEFAULT_FILTER };
  private query = "";
  private hits: SearchHit[] | null = null;
  private localSearch = false;
  private loading: Promise<void> | null = null;
  private reloadAgain = false;
  private listEl!: HTMLElement;
  private summaryEl!: HTMLElement;
  private related: { notes: RelatedNotes; section: RelatedSection } | null = null;
  private readonly searchSoon = debounce(() => void this.runSearch(), 300, true);

  constructor(
    private readonly root: HTMLElement,
    private readonly deps: PanelDeps,
  ) {
    super();
  }

  override onload(): void {
    this.root.empty();
    this.root.addClass("cg-memories");
    if (this.deps.activeNote) this.loadRelated(this.deps.activeNote);
    this.buildToolbar(this.root.createDiv({ cls: "cg-toolbar" }));
    this.summaryEl = this.root.createDiv({ cls: "cg-summary" });
    this.listEl = this.root.createDiv({ cls: "cg-list" });
    this.registerEvent(this.deps.backend.onChanged(() => void this.refresh()));
    this.registerEvent(
      this.deps.backend.onState((state) => {
        // Back online after being away: what we show is stale.
        if (state.kind === "online" && !this.loading) void this.refresh();
        else this.render();
      }),
    );
    this.register(() => this.searchSoon.cancel());
    this.render();
  }

  /** Reload from the backend; calls made while loading are folded into one more reload. */
  refresh(): Promise<void> {
    if (this.loading) {
      this.reloadAgain = true;
      return this.loading;
    }
    this.related?.notes.refresh();
    this.loading = this.fetchMemories().finally(() => {
      this.loading = null;
      if (this.reloadAgain) {
        this.reloadAgain = false;
        void this.refresh();
      }
    });
    return this.loading;
  }

  private loadRelated(activeNote: ActiveNote): void {
    const section = new RelatedSection(this.root);
    const notes = new RelatedNotes(this.deps.backend, activeNote, () => this.renderRelated(), this.deps.relatedOptions);
    this.related = { notes, section };
    this.addChild(notes);
  }

  private renderRelated(): void {
    if (!this.related) return;
    const { notes, section } = this.related;
    const kind = this.deps.backend.state.kind;
    section.render(notes.state, this.handlers());
    section.hide((kind !== "online" && kind !== "unknown") || notes.state.kind === "unreachable");
  }

  private async fetchMemories(): Promise<void> {
    try {
      this.memories = await this.deps.backend.run((c) => c.allMemories(this.filter.status));
      this.failure = null;
      this.loaded = true;
      if (this.query) await this.runSearch(false);
    } catch (error) {
      // Connection problems show as the offline state, not as an error.
      this.failure = isConnectionProblem(error) ? null : describeError(error);
    }
    this.render();
  }

  private async runSearch(render = true): Promise<void> {
    const query = this.query.trim();
    if (!query) {
      this.hits = null;
    } else if (this.localSearch) {
      this.hits = null;
    } else {
      try {
        const result = await this.deps.backend.run((c) => c.search(query, 30));
        if (query !== this.query.trim()) return;
        this.hits = result.results;
      } catch (error) {
        if (error instanceof NotAvailable) {
          this.localSearch = true;
          this.hits = null;
        } else if (!isConnectionProblem(error)) {
          this.failure = describeError(error);
        }
      }
    }
    if (render) this.render();
  }

  private buildToolbar(bar: HTMLElement): void {
    const search = bar.createEl("input", {
      cls: "cg-search",
      type: "search",
      placeholder: "Search memories and notes",
    });
    search.setAttr("aria-label", "Search memories and notes");
    this.registerDomEvent(search, "input", () => {
      this.query = search.value;
      // Local matches at once; the backend's unified search replaces them when it answers.
      this.hits = null;
      this.render();
      if (this.query.trim() && !this.localSearch) this.searchSoon();
    });

    const status = this.select(bar, "cg-status-filter", "Which memories", STATUS_OPTIONS, this.filter.status);
    this.registerDomEvent(status, "change", () => {
      this.filter = { ...this.filter, status: status.value as ListStatus };
      void this.refresh();
    });
    const show = this.select(bar, "cg-show-filter", "Show", SHOW_OPTIONS, this.filter.show);
    this.registerDomEvent(show, "change", () => {
      this.filter = { ...this.filter, show: show.value as ShowFilter };
      this.render();
    });
    const reload = bar.createEl("button", { cls: "cg-refresh", text: "Refresh" });
    this.registerDomEvent(reload, "click", () => void this.refresh());
  }

  private select<K extends string>(parent: HTMLElement, cls: string, label: string, options: Record<K, string>, value: K): HTMLSelectElement {
    const el = parent.createEl("select", { cls: ["dropdown", cls] });
    el.setAttr("aria-label", label);
    for (const [key, text] of Object.entries(options) as [K, string][]) {
      el.createEl("option", { text, value: key });
    }
    el.value = value;
    return el;
  }

  private render(): void {
    this.renderRelated();
    const state = this.deps.backend.state;
    this.listEl.empty();
    this.summaryEl.empty();
    if (state.kind !== "online" && state.kind !== "unknown") {
      this.renderDisconnected(state);
      return;
    }
    if (!this.loaded) {
      this.listEl.createDiv({ cls: "cg-placeholder", text: this.failure ?? "Loading memories…" });
      return;
    }
    if (this.failure) this.listEl.createDiv({ cls: ["cg-placeholder", "cg-failure"], text: this.failure });

    const thresholds = this.deps.backend.config.thresholds;
    const handlers = this.handlers();
    const ctx = { thresholds, now: this.deps.now(), handlers };
    const shown = visibleMemories(this.memories, this.filter, thresholds);
    this.renderSummary(shown);

    const query = this.query.trim();
    if (query && this.hits) {
      const rows = resultRows(this.hits, this.memories);
      if (rows.length === 0) this.listEl.createDiv({ cls: "cg-placeholder", text: `Nothing matches "${query}"` });
      for (const row of rows) {
        if (row.kind === "memory") renderMemoryRow(this.listEl, row.memory, ctx);
        else renderHitRow(this.listEl, row.hit, handlers);
      }
      return;
    }
    const matching = query ? shown.filter((m) => matchesText(m, query)) : shown;
    if (matching.length === 0) {
      this.listEl.createDiv({ cls: ["cg-placeholder", "cg-empty"], text: this.emptyText(query) });
      return;
    }
    for (const memory of matching) renderMemoryRow(this.listEl, memory, ctx);
  }

  private renderSummary(shown: MemoryView[]): void {
    const thresholds = this.deps.backend.config.thresholds;
    const counts = { fading: 0, promotable: 0, forgetting: 0 };
    for (const m of this.memories) {
      const kind = chipFor(m, thresholds).kind;
      if (kind in counts) counts[kind as keyof typeof counts] += 1;
    }
    const parts = [plural(shown.length, "memory", "memories")];
    if (counts.fading) parts.push(`${counts.fading} fading`);
    if (counts.promotable) parts.push(`${counts.promotable} promotable`);
    if (counts.forgetting) parts.push(`${counts.forgetting} about to be forgotten`);
    this.summaryEl.setText(parts.join(" · "));
  }

  private emptyText(query: string): string {
    if (query) return `No memory matches "${query}"`;
    if (this.memories.length === 0) {
      return this.filter.status === "active"
        ? "No short-term memories yet. Your assistant saves them as you talk."
        : "No memories here.";
    }
    return "No memory matches these filters.";
  }

  private renderDisconnected(state: Exclude<ConnectionState, { kind: "online" } | { kind: "unknown" }>): void {
    const box = this.listEl.createDiv({ cls: ["cg-placeholder", `cg-${state.kind}`] });
    const heading =
      state.kind === "offline" ? "Backend not running" : state.kind === "unauthorized" ? "Token refused" : "Backend not answering";
    box.createDiv({ cls: "cg-placeholder-title", text: heading });
    box.createDiv({ text: state.message });
    const actions = box.createDiv({ cls: "cg-actions" });
    const retry = actions.createEl("button", { text: "Try again" });
    retry.addEventListener("click", () => void this.refresh());
    if (this.deps.openSettings) {
      const open = actions.createEl("button", { text: "Open settings" });
      const openSettings = this.deps.openSettings;
      open.addEventListener("click", () => openSettings());
    }
  }

  private handlers(): RowHandlers {
    const { actions, showHistory, promote, supersede } = this.deps;
    return {
      open: (path) => void actions.open(path),
      reinforce: (memory, button) => void busy(button, () => actions.reinforce(memory)),
      promote: (memory, button) => void busy(button, () => promote(memory)),
      history: (memory) => showHistory(memory),
      ...(supersede ? { supersede } : {}),
    };
  }
}

async function busy(button: HTMLButtonElement, work: () => Promise<unknown>): Promise<void> {
  button.disabled = true;
  button.addClass("is-loading");
  try {
    await work();
  } finally {
    button.disabled = false;
    button.removeClass("is-loading");
  }
}
