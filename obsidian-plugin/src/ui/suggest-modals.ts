// Pickers: search memories (unified search, or a local match when the backend has none yet) and
// restore a forgotten memory (from git history).

import { SuggestModal, type App } from "obsidian";
import type { MemoryActions } from "../actions/memory-actions";
import { NotAvailable } from "../api/errors";
import type { ForgottenView, MemoryView } from "../api/types";
import type { Backend } from "../backend/backend";
import { chipFor } from "../model/chip";
import { formatScore, formatWhen } from "../model/format";
import { byScore, matchesText } from "../model/memory-filter";
import { describeError } from "../model/messages";

interface Found {
  title: string;
  path: string;
  detail: string;
  preview: string;
}

export class MemorySearchModal extends SuggestModal<Found> {
  private memories: MemoryView[] | null = null;
  private localOnly = false;

  constructor(
    app: App,
    private readonly backend: Backend,
    private readonly actions: MemoryActions,
  ) {
    super(app);
    this.setPlaceholder("Search memories and notes");
    this.emptyStateText = "No memory matches";
  }

  async getSuggestions(query: string): Promise<Found[]> {
    const q = query.trim();
    try {
      if (q && !this.localOnly) {
        try {
          const result = await this.backend.run((c) => c.search(q, 30));
          return result.results.map((hit) => ({
            title: hit.title,
            path: hit.path,
            detail: `${hit.source === "note" ? "Note" : `Memory ${formatScore(hit.memory_score)}`} · match ${formatScore(hit.score)}`,
            preview: hit.content,
          }));
        } catch (error) {
          if (!(error instanceof NotAvailable)) throw error;
          this.localOnly = true;
        }
      }
      this.memories ??= await this.backend.run((c) => c.allMemories("all"));
      const thresholds = this.backend.config.thresholds;
      return this.memories
        .filter((m) => matchesText(m, q))
        .sort(byScore)
        .slice(0, 50)
        .map((m) => ({
          title: m.title,
          path: m.path,
          detail: `Memory ${formatScore(m.score)} · ${chipFor(m, thresholds).label}`,
          preview: m.content.slice(0, 160),
        }));
    } catch (error) {
      this.emptyStateText = describeError(error);
      return [];
    }
  }

  renderSuggestion(found: Found, el: HTMLElement): void {
    el.addClass("cg-suggestion");
    el.createDiv({ cls: "cg-suggestion-title", text: found.title });
    el.createDiv({ cls: "cg-suggestion-detail", text: `${found.detail} · ${found.path}` });
    if (found.preview) el.createDiv({ cls: "cg-suggestion-preview", text: found.preview });
  }

  onChooseSuggestion(found: Found): void {
    void this.actions.open(found.path);
  }
}

/** Pick the memory that `current` replaces: memories matching the words typed, itself left out. */
export class SupersededPickModal extends SuggestModal<MemoryView> {
  private memories: MemoryView[] | null = null;

  constructor(
    app: App,
    private readonly backend: Backend,
    private readonly current: MemoryView,
    private readonly chosen: (old: MemoryView) => void,
  ) {
    super(app);
    this.setPlaceholder(`Which memory does "${current.title}" replace?`);
    this.emptyStateText = "No memory matches";
  }

  async getSuggestions(query: string): Promise<MemoryView[]> {
    try {
      this.memories ??= await this.backend.run((c) => c.allMemories("all"));
      return this.memories
        .filter((m) => m.path !== this.current.path && m.status !== "archived" && matchesText(m, query.trim()))
        .sort(byScore)
        .slice(0, 50);
    } catch (error) {
      this.emptyStateText = describeError(error);
      return [];
    }
  }

  renderSuggestion(m: MemoryView, el: HTMLElement): void {
    el.addClass("cg-suggestion");
    el.createDiv({ cls: "cg-suggestion-title", text: m.title });
    el.createDiv({ cls: "cg-suggestion-detail", text: m.path });
    if (m.content) el.createDiv({ cls: "cg-suggestion-preview", text: m.content.slice(0, 160) });
  }

  onChooseSuggestion(m: MemoryView): void {
    this.chosen(m);
  }
}

export class ForgottenModal extends SuggestModal<ForgottenView> {
  constructor(
    app: App,
    private readonly forgotten: ForgottenView[],
    private readonly actions: MemoryActions,
  ) {
    super(app);
    this.setPlaceholder("Pick a forgotten memory to restore");
    this.emptyStateText = forgotten.length ? "No forgotten memory matches" : "Git history has no forgotten memory";
  }

  getSuggestions(query: string): ForgottenView[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return this.forgotten.filter((f) => {
      const text = `${f.title} ${f.preview} ${f.path}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }

  renderSuggestion(f: ForgottenView, el: HTMLElement): void {
    el.addClass("cg-suggestion");
    el.createDiv({ cls: "cg-suggestion-title", text: f.title });
    el.createDiv({ cls: "cg-suggestion-detail", text: `Forgotten ${formatWhen(f.deleted_at)} · ${f.path}` });
    if (f.preview) el.createDiv({ cls: "cg-suggestion-preview", text: f.preview });
  }

  onChooseSuggestion(f: ForgottenView): void {
    void this.actions.restore(f.id, f.title);
  }
}
