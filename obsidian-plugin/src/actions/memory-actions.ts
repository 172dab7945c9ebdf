// What a person can do to a memory, each as one call to the backend, with the open editor of the
// file saved first and a notice afterwards. Views, commands, menus and the status bar all call
// these, so every door behaves the same.

import { isConnectionProblem } from "../api/errors";
import type {
  ForgottenView,
  GcResult,
  HistoryResult,
  PromoteResult,
  RestoreResult,
  TouchResult,
  UpdateResult,
  VersionResult,
} from "../api/types";
import type { Backend } from "../backend/backend";
import { describeError, gcMessage, promotedMessage, reinforcedMessage, supersededMessage } from "../model/messages";
import type { OpenNotes } from "./open-notes";

export interface MemoryRef {
  id: string | null;
  path: string;
  title: string;
}

export type Notify = (message: string) => void;

/** The backend accepts an id, a unique id prefix or a title; a memory made by hand has no id yet. */
export function refOf(memory: MemoryRef): string {
  return memory.id ?? memory.title;
}

export class MemoryActions {
  constructor(
    private readonly backend: Backend,
    private readonly notes: OpenNotes,
    private readonly notify: Notify,
  ) {}

  async reinforce(memory: MemoryRef, boost = false): Promise<TouchResult | null> {
    return this.attempt(async () => {
      await this.notes.saveOpenViews(memory.path);
      const result = await this.backend.run((c) => c.touch(refOf(memory), boost));
      this.notify(reinforcedMessage(memory.title, result));
      this.backend.notifyChanged();
      return result;
    });
  }

  /** Promote; `force` promotes a memory the rules do not ask for yet (the person insisted). */
  async promote(memory: MemoryRef, force = false): Promise<PromoteResult | null> {
    return this.attempt(async () => {
      await this.notes.saveOpenViews(memory.path);
      const wasOpen = this.notes.openPaths().includes(memory.path);
      const result = await this.backend.run((c) => c.promote(refOf(memory), { force }));
      this.notify(promotedMessage(memory.title, result));
      this.backend.notifyChanged();
      // The note moved out of the short-term folder: follow it if the person had it open.
      const movedTo = result.moved[memory.path];
      if (wasOpen && movedTo) await this.notes.open(movedTo);
      return result;
    });
  }

  /** Mark `memory` as replacing `old` (which is no longer true): search answers with `memory`
   * from now on, and `memory` takes over the old one's uses (and its promoted place). */
  async supersede(memory: MemoryRef, old: MemoryRef): Promise<UpdateResult | null> {
    return this.attempt(async () => {
      await this.notes.saveOpenViews(memory.path);
      await this.notes.saveOpenViews(old.path);
      const result = await this.backend.run((c) => c.supersede(refOf(memory), [refOf(old)]));
      this.notify(supersededMessage(memory.title, old.title, result));
      this.backend.notifyChanged();
      return result;
    });
  }

  /** What gc would forget now, leaving notes open in tabs alone (nothing is written). */
  previewGc(): Promise<GcResult | null> {
    return this.attempt(() => this.backend.run((c) => c.gc({ dryRun: true, skipPaths: this.notes.openPaths() })));
  }

  async runGc(archiveInstead: boolean): Promise<GcResult | null> {
    return this.attempt(async () => {
      const skipPaths = this.notes.openPaths();
      const result = await this.backend.run((c) => c.gc({ dryRun: false, archiveInstead, skipPaths }));
      this.notify(gcMessage(result));
      this.backend.notifyChanged();
      return result;
    });
  }

  history(memory: MemoryRef): Promise<HistoryResult | null> {
    return this.attempt(() => this.backend.run((c) => c.history(refOf(memory))));
  }

  version(memoryId: string, commit: string): Promise<VersionResult | null> {
    return this.attempt(() => this.backend.run((c) => c.version(memoryId, commit)));
  }

  /** Bring a forgotten memory back (from `commit`, or from just before it was deleted) and open it. */
  async restore(memoryId: string, title: string, commit?: string): Promise<RestoreResult | null> {
    return this.attempt(async () => {
      const result = await this.backend.run((c) => c.restore(memoryId, commit));
      this.notify(`Restored "${title}" to ${result.path}`);
      this.backend.notifyChanged();
      await this.notes.open(result.path);
      return result;
    });
  }

  forgotten(): Promise<ForgottenView[] | null> {
    return this.attempt(() => this.backend.run((c) => c.forgotten()));
  }

  async open(path: string): Promise<void> {
    await this.notes.open(path);
  }

  /** Run an action; on failure tell the person why and return null. */
  private async attempt<T>(action: () => Promise<T>): Promise<T | null> {
    try {
      return await action();
    } catch (error) {
      // A person asked for this, so even "not running" deserves a word, not silence.
      this.notify(isConnectionProblem(error) ? describeError(error) : `Failed: ${describeError(error)}`);
      return null;
    }
  }
}
