// The active file as a test moves it: what file-open does in the app.

import { Events, type EventRef } from "obsidian";
import type { ActiveNote } from "../../src/backend/related-notes";

export class FakeActiveNote extends Events implements ActiveNote {
  constructor(public path: string | null = null) {
    super();
  }

  open(path: string | null): void {
    this.path = path;
    this.trigger("path", path);
  }

  onPathChanged(callback: (path: string | null) => void): EventRef {
    return this.on("path", (path) => callback(path as string | null));
  }
}
