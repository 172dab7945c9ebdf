// The memories and notes related to the active note, for the Memories view while it is open.
// Flicking through notes asks once, for the note the person stops at (debounced); one request
// is in flight at a time; an answer for a note that is no longer active is dropped.

import { Component, debounce, type Debouncer, type EventRef } from "obsidian";
import { NotFound, isConnectionProblem } from "../api/errors";
import { describeError } from "../model/messages";
import { relatedStart, type RelatedState } from "../model/related";
import type { Backend } from "./backend";

/** The file in the active editor, and an event when another one becomes active. */
export interface ActiveNote {
  readonly path: string | null;
  onPathChanged(callback: (path: string | null) => void): EventRef;
}

export interface RelatedOptions {
  /** How long the active note must stay the same before the backend is asked. */
  delayMs: number;
  limit: number;
}

export const RELATED_DEFAULTS: RelatedOptions = { delayMs: 400, limit: 8 };

export class RelatedNotes extends Component {
  private current: RelatedState = { kind: "no-note" };
  private live = false;
  private inFlight = false;
  private askAgain = false;
  private readonly askSoon: Debouncer<[], void>;

  constructor(
    private readonly backend: Backend,
    private readonly active: ActiveNote,
    private readonly onChange: (state: RelatedState) => void,
    private readonly options: RelatedOptions = RELATED_DEFAULTS,
  ) {
    super();
    this.askSoon = debounce(() => void this.ask(), options.delayMs, true);
  }

  get state(): RelatedState {
    return this.current;
  }

  override onload(): void {
    this.live = true;
    this.registerEvent(this.active.onPathChanged((path) => this.show(path)));
    this.register(() => this.askSoon.cancel());
    this.show(this.active.path);
  }

  override onunload(): void {
    this.live = false;
  }

  /** Another file is active: say so at once, ask the backend once the person settles on it. */
  show(path: string | null): void {
    if (path !== null && path === pathOf(this.current)) return;
    this.set(relatedStart(path));
    if (this.current.kind === "loading") this.askSoon();
    else this.askSoon.cancel();
  }

  /** The vault or the backend changed: ask again about the same note, showing the old answer
   *  meanwhile. A note still waiting for its first answer is left to that answer. */
  refresh(): void {
    const kind = this.current.kind;
    if (kind === "no-note" || kind === "not-markdown" || kind === "loading") return;
    void this.ask();
  }

  private async ask(): Promise<void> {
    if (this.inFlight) {
      this.askAgain = true;
      return;
    }
    const path = pathOf(this.current);
    if (path === null || this.current.kind === "not-markdown") return;
    this.inFlight = true;
    let next: RelatedState;
    try {
      const result = await this.backend.run((c) => c.related(path, this.options.limit));
      next = { kind: "loaded", path, hits: result.results };
    } catch (error) {
      if (error instanceof NotFound) next = { kind: "unknown", path };
      else if (isConnectionProblem(error)) next = { kind: "unreachable", path };
      else next = { kind: "failed", path, message: describeError(error) };
    } finally {
      this.inFlight = false;
    }
    if (!this.live) return;
    if (pathOf(this.current) === path) this.set(next);
    if (this.askAgain) {
      this.askAgain = false;
      void this.ask();
    }
  }

  private set(state: RelatedState): void {
    this.current = state;
    this.onChange(state);
  }
}

function pathOf(state: RelatedState): string | null {
  return "path" in state ? state.path : null;
}
