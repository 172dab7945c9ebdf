import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/model/backend-config";
import { statusText } from "../../src/model/status-text";
import { aMemory } from "../support/memories";

const t = DEFAULT_CONFIG.thresholds;

describe("statusText", () => {
  it("says the backend is offline and offers to check again", () => {
    const s = statusText({ kind: "offline", message: "The backend is not running at http://127.0.0.1:47613." }, undefined, t);
    expect(s.text).toBe("Memories: offline");
    expect(s.tooltip).toContain("not running");
    expect(s.click).toBe("retry");
  });

  it("says when the token is refused", () => {
    expect(statusText({ kind: "unauthorized", message: "refused" }, null, t).text).toBe("Memories: token refused");
  });

  it("shows the live score and chip of the active memory, and offers to reinforce it", () => {
    const s = statusText({ kind: "online" }, aMemory({ score: 0.2345, days_until_forgotten: 4.2 }), t);
    expect(s.text).toBe("Memory 0.23 · Fading");
    expect(s.tooltip).toContain("Forgotten in 4 days");
    expect(s.click).toBe("reinforce");
  });

  it("does not offer to reinforce a promoted memory", () => {
    const s = statusText({ kind: "online" }, aMemory({ status: "promoted", score: 1.2 }), t);
    expect(s.text).toBe("Memory 1.20 · Promoted");
    expect(s.click).toBe("open-view");
  });

  it("says connected for an ordinary note", () => {
    expect(statusText({ kind: "online" }, null, t)).toMatchObject({ text: "Memories: connected", click: "open-view" });
  });
});
