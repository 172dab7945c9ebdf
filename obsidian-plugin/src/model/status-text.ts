// What the status bar says: whether the backend is there and, for a memory note, its live score.

import type { MemoryView } from "../api/types";
import type { Thresholds } from "./backend-config";
import { chipFor } from "./chip";
import type { ConnectionState } from "./connection";
import { formatScore, formatUntilForgotten } from "./format";

export interface StatusText {
  text: string;
  tooltip: string;
  /** What a click does. */
  click: "reinforce" | "retry" | "open-view";
}

export function statusText(state: ConnectionState, memory: MemoryView | null | undefined, thresholds: Thresholds): StatusText {
  switch (state.kind) {
    case "offline":
      return { text: "Memories: offline", tooltip: `${state.message}\nClick to check again`, click: "retry" };
    case "unauthorized":
      return { text: "Memories: token refused", tooltip: state.message, click: "retry" };
    case "error":
      return { text: "Memories: not answering", tooltip: `${state.message}\nClick to check again`, click: "retry" };
    case "unknown":
    case "online":
      break;
  }
  if (!memory) {
    return {
      text: state.kind === "online" ? "Memories: connected" : "Memories",
      tooltip: "Click to open the memories view",
      click: "open-view",
    };
  }
  const chip = chipFor(memory, thresholds);
  const text = `Memory ${formatScore(memory.score)} · ${chip.label}`;
  if (memory.status !== "active") return { text, tooltip: chip.reason, click: "open-view" };
  const until = formatUntilForgotten(memory.days_until_forgotten, memory.status);
  return {
    text,
    tooltip: `${chip.reason}\nForgotten ${until} if unused. Click to reinforce`,
    click: "reinforce",
  };
}
