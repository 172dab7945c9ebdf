// The steps behind each command and menu item: find the memory, run the action, open the modal.
// Commands, the file menu and the view share these, so each door behaves the same.

import { Notice, type App } from "obsidian";
import type { MemoryActions, MemoryRef } from "../actions/memory-actions";
import type { MemoryView } from "../api/types";
import type { ActiveMemory } from "../backend/active-memory";
import type { Backend } from "../backend/backend";
import { formatScore, plural } from "../model/format";
import { describeError } from "../model/messages";
import { confirm } from "./confirm-modal";
import { GcConfirmModal, GcPreviewModal } from "./gc-modals";
import { HistoryModal } from "./history-modal";
import { ForgottenModal, MemorySearchModal, SupersededPickModal } from "./suggest-modals";

export class MemoryFlows {
  constructor(
    private readonly app: App,
    private readonly backend: Backend,
    private readonly active: ActiveMemory,
    private readonly actions: MemoryActions,
  ) {}

  /** The memory stored at `path`, looked up if it is not the active one; null (with a notice) if none. */
  async memoryAt(path: string): Promise<MemoryView | null> {
    const known = this.active.memoryAt(path);
    if (known) return known;
    try {
      const found = await this.backend.run((c) => c.lookup(path));
      if (!found) new Notice(`${path} is not a memory`);
      return found;
    } catch (error) {
      new Notice(describeError(error));
      return null;
    }
  }

  async reinforce(path: string): Promise<void> {
    const memory = await this.memoryAt(path);
    if (!memory) return;
    await this.actions.reinforce(memory);
    if (path === this.active.path) await this.active.lookup();
  }

  async promote(path: string): Promise<void> {
    const memory = await this.memoryAt(path);
    if (memory) await this.promoteMemory(memory);
  }

  /** Promote; a memory the rules do not ask for yet is promoted only after a confirmation. */
  async promoteMemory(memory: MemoryView): Promise<void> {
    if (memory.status !== "active") {
      new Notice(`${memory.path} is ${memory.status}; only short-term memories can be promoted`);
      return;
    }
    let force = false;
    if (!memory.promotable) {
      force = await confirm(
        this.app,
        `Promote ${memory.title}?`,
        `The rules do not ask for it yet (score ${formatScore(memory.score)}, used ${plural(memory.use_count, "time")}). Promoting moves it into ${this.backend.config.folders.ltm}/ and keeps it for good.`,
        "Promote anyway",
      );
      if (!force) return;
    }
    await this.actions.promote(memory, force);
    await this.active.lookup();
  }

  /** Ask which memory `memory` replaces, then record it. */
  pickSuperseded(memory: MemoryView): void {
    new SupersededPickModal(this.app, this.backend, memory, (old) => void this.actions.supersede(memory, old)).open();
  }

  async historyOf(path: string): Promise<void> {
    const memory = await this.memoryAt(path);
    if (memory) await this.showHistory(memory);
  }

  async showHistory(memory: MemoryRef & { status?: string }): Promise<void> {
    if (!memory.id) {
      new Notice(`${memory.path} has no id yet, so git cannot follow it; reinforce it once first`);
      return;
    }
    const history = await this.actions.history(memory);
    if (history) new HistoryModal(this.app, this.actions, memory, history).open();
  }

  async previewGc(): Promise<void> {
    const preview = await this.actions.previewGc();
    if (!preview) return;
    const thresholds = this.backend.config.thresholds;
    new GcPreviewModal(this.app, preview, thresholds, () => void this.runGc()).open();
  }

  async runGc(): Promise<void> {
    const preview = await this.actions.previewGc();
    if (!preview) return;
    const thresholds = this.backend.config.thresholds;
    new GcConfirmModal(this.app, preview, thresholds, (archive) => this.actions.runGc(archive)).open();
  }

  searchMemories(): void {
    new MemorySearchModal(this.app, this.backend, this.actions).open();
  }

  async restoreForgotten(): Promise<void> {
    const forgotten = await this.actions.forgotten();
    if (forgotten) new ForgottenModal(this.app, forgotten, this.actions).open();
  }
}
