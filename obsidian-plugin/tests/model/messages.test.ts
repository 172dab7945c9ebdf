import { describe, expect, it } from "vitest";
import { InvalidRequest } from "../../src/api/errors";
import { describeError, forgetReason, gcMessage, promotedMessage, reinforcedMessage } from "../../src/model/messages";
import { aGcResult } from "../support/memories";

describe("messages", () => {
  it("describes a backend error by its detail", () => {
    expect(describeError(new InvalidRequest("_stm/X.md: frontmatter is not valid YAML; left untouched", 422, "invalid"))).toBe(
      "_stm/X.md: frontmatter is not valid YAML; left untouched",
    );
    expect(describeError(new Error("boom"))).toBe("Unexpected error: boom");
  });

  it("reports a reinforcement with both scores and the new use count", () => {
    const text = reinforcedMessage("Oat milk", { success: true, memory_id: "i", id: "i", path: "p", old_score: 0.21, new_score: 0.74, use_count: 4, strength: 1 });
    expect(text).toBe('Reinforced "Oat milk": score 0.21 → 0.74, used 4 times');
  });

  it("reports where a promoted memory went", () => {
    const result = { success: true, dry_run: false, candidates_found: 1, promoted_count: 1, promoted_ids: ["i"], candidates: [], moved: { "_stm/A.md": "memories/A.md" }, commit: "abc", message: "promoted 1" };
    expect(promotedMessage("A", result)).toBe('Promoted "A" to memories/A.md');
    expect(promotedMessage("A", { ...result, promoted_count: 0, moved: {}, message: "A: not a candidate" })).toBe("A: not a candidate");
  });

  it("reports gc results, with the commit and what was left alone", () => {
    expect(gcMessage(aGcResult({ dry_run: false }))).toBe("Nothing to forget");
    const ran = aGcResult({ dry_run: false, removed_count: 2, total_affected: 2, commit: "0123456789", skipped: [{ path: "_stm/Open.md", reason: "open" }] });
    expect(gcMessage(ran)).toBe("Forgot 2 memories (commit 0123456); 1 open note left alone");
    expect(gcMessage(aGcResult({ dry_run: false, archived_count: 1, total_affected: 1 }))).toBe("Archived 1 memory");
  });

  it("explains why gc would forget a memory", () => {
    expect(forgetReason(0.031, 0.05, 1, 20.4)).toBe("Score 0.03 is below 0.05; used 1 time in 20 days");
  });
});
