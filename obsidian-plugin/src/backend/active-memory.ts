// The memory behind the active note, looked up by path and kept current, for the status bar and
// for deciding which commands apply. A newer lookup always wins over a slower older one.

import { Events, type EventRef } from "obsidian";
import { isConnectionProblem } from "../api/errors";
import type { MemoryDetail } from "../api/types";
import { inFolder } from "../model/backend-config";
import type { Backend } from "./backend";
import type { ActiveNote } from "./related-notes";

export class ActiveMemory extends Events implements ActiveNote {
  private currentPath: string | null = null;
  private found: MemoryDetail | null | undefined = undefined;
  private generation = 0;

  constructor(private readonly backend: Backend) {
    super();
  }

  get path(): string | null {
    return this.currentPath;
  }

  /** The memory at `path`: undefined while unknown, null when the note is not a memory. */
  get memory(): MemoryDetail | null | undefined {
    return this.found;
  }

  /** The memory for `path` if it is the one tracked, else undefined (not known yet). */
  memoryAt(path: string | null): MemoryDetail | null | undefined {
    return path !== null && path === this.currentPath ? this.found : undefined;
  }

  async track(path: string | null): Promise<void> {
    if (path !== this.currentPath) {
      this.currentPath = path;
      this.found = undefined;
      this.trigger("path", path);
    }
    await this.lookup();
  }

  /** A file was renamed or moved: if it is the active one, follow it to its new path. */
  async renamed(oldPath: string, newPath: string): Promise<void> {
    if (oldPath === this.currentPath) await this.track(newPath);
  }

  async lookup(): Promise<void> {
    const generation = ++this.generation;
    const path = this.currentPath;
    let found: MemoryDetail | null | undefined;
    if (path === null || !this.mayBeMemory(path)) {
      found = null;
    } else {
      try {
        found = await this.backend.run((c) => c.lookup(path));
      } catch (error) {
        found = isConnectionProblem(error) ? undefined : null;
      }
    }
    if (generation !== this.generation) return;
    this.found = found;
    this.trigger("changed");
  }

  onChanged(callback: () => void): EventRef {
    return this.on("changed", callback);
  }

  /** Another file became active (at once, before its lookup answers). */
  onPathChanged(callback: (path: string | null) => void): EventRef {
    return this.on("path", (path) => callback(path as string | null));
  }

  private mayBeMemory(path: string): boolean {
    const { stm, ltm, archive } = this.backend.config.folders;
    return [stm, ltm, archive].some((folder) => inFolder(path, folder));
  }
}
