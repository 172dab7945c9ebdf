// "Related to this note": what the section shows for the active file, as states and sentences.
// Pure: the controller (backend/related-notes.ts) moves between these states.

import type { SearchHit } from "../api/types";

export type RelatedState =
  /** No file is open. */
  | { kind: "no-note" }
  /** A PDF, an image, a canvas…: only Markdown notes are asked about. */
  | { kind: "not-markdown"; path: string }
  | { kind: "loading"; path: string }
  | { kind: "loaded"; path: string; hits: SearchHit[] }
  /** The backend has no note at this path (not indexed yet, or it serves another vault). */
  | { kind: "unknown"; path: string }
  /** The backend cannot be reached: the view shows that state instead. */
  | { kind: "unreachable"; path: string }
  | { kind: "failed"; path: string; message: string };

/** The state to start from when `path` becomes the active file (before any answer). */
export function relatedStart(path: string | null): RelatedState {
  if (path === null || path === "") return { kind: "no-note" };
  if (!isMarkdown(path)) return { kind: "not-markdown", path };
  return { kind: "loading", path };
}

export function isMarkdown(path: string): boolean {
  return path.toLowerCase().endsWith(".md");
}

/** The note's name as Obsidian shows it: the file name without folder and `.md`. */
export function noteName(path: string): string {
  const file = path.slice(path.lastIndexOf("/") + 1);
  return isMarkdown(file) ? file.slice(0, -3) : file;
}

/** The sentence the section shows instead of rows, or null when it shows rows. */
export function relatedMessage(state: RelatedState): string | null {
  switch (state.kind) {
    case "no-note":
      return "Open a note to see the memories and notes related to it.";
    case "not-markdown":
      return `${noteName(state.path)} is not a Markdown note; related memories are found for notes.`;
    case "loading":
      return `Finding what is related to ${noteName(state.path)}…`;
    case "loaded":
      return state.hits.length ? null : `Nothing else in the vault is about ${noteName(state.path)} yet.`;
    case "unknown":
      return `The backend does not know ${noteName(state.path)} yet. Is it serving this vault?`;
    case "unreachable":
      return "The backend is not reachable.";
    case "failed":
      return state.message;
  }
}
