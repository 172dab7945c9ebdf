// The Memories view as the Chromium test page runs it: the real panel, backend, client and
// actions, with Obsidian's DOM helpers shimmed and HTTP carried by the test's Node side (as
// requestUrl carries it in the app, outside the page and its CORS rules).

import { MemoryActions } from "../../src/actions/memory-actions";
import type { OpenNotes } from "../../src/actions/open-notes";
import type { Transport, TransportRequest, TransportResponse } from "../../src/api/transport";
import { ActiveMemory } from "../../src/backend/active-memory";
import { Backend } from "../../src/backend/backend";
import { MemoriesPanel } from "../../src/ui/memories-panel";
import { installDomHelpers } from "../stubs/dom";

declare global {
  interface Window {
    cgSend(request: TransportRequest): Promise<TransportResponse>;
    startMemories(baseUrl: string, token: string): Promise<void>;
    /** What file-open does in the app: another file (or none) becomes the active one. */
    cgOpenNote(path: string | null): void;
    cgOpened: string[];
    cgNotices: string[];
  }
}

installDomHelpers(window);

const transport: Transport = { send: (request) => window.cgSend(request) };

window.cgOpened = [];
window.cgNotices = [];

const notes: OpenNotes = {
  saveOpenViews: async () => undefined,
  openPaths: () => [],
  open: async (path) => void window.cgOpened.push(path),
};

window.startMemories = async (baseUrl: string, token: string) => {
  const backend = new Backend({ baseUrl, token: () => token, timeoutMs: 20_000 }, transport, window);
  const noticesEl = document.querySelector<HTMLElement>(".notices")!;
  const actions = new MemoryActions(backend, notes, (message) => {
    window.cgNotices.push(message);
    noticesEl.createDiv({ cls: "notice", text: message });
  });
  const active = new ActiveMemory(backend);
  window.cgOpenNote = (path) => void active.track(path);
  const root = document.querySelector<HTMLElement>(".view-content")!;
  const panel = new MemoriesPanel(root, {
    backend,
    actions,
    now: () => new Date(),
    showHistory: () => undefined,
    promote: (memory) => actions.promote(memory),
    activeNote: active,
  });
  panel.load();
  await panel.refresh();
};
