// A workspace stand-in: which notes are "open in tabs", which were saved, which were opened.

import type { OpenNotes } from "../../src/actions/open-notes";

export class FakeNotes implements OpenNotes {
  readonly saved: string[] = [];
  readonly opened: string[] = [];
  /** Every step in order, to check that saving came before the backend call. */
  readonly log: string[];

  constructor(
    private readonly tabs: string[] = [],
    log?: string[],
  ) {
    this.log = log ?? [];
  }

  async saveOpenViews(path: string): Promise<void> {
    this.saved.push(path);
    this.log.push(`save ${path}`);
  }

  openPaths(): string[] {
    return [...this.tabs];
  }

  async open(path: string): Promise<void> {
    this.opened.push(path);
  }
}
