// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/model/backend-config";
import { GcConfirmModal, renderForgetList } from "../../src/ui/gc-modals";
import { aGcResult } from "../support/memories";

describe("renderForgetList", () => {
  it("lists each memory gc would forget with the reason, and the notes it leaves alone", () => {
    const el = document.createElement("div");
    renderForgetList(
      el,
      aGcResult({
        candidates: [{ id: "1", title: "Dentist moved", path: "_stm/Dentist moved.md", score: 0.012, use_count: 1, age_days: 31.2, superseded_by: [] }],
        skipped: [{ path: "_stm/Open.md", reason: "open in an editor; left alone" }],
      }),
      DEFAULT_CONFIG.thresholds,
    );
    const item = el.querySelector(".cg-gc-item")!;
    expect(item.getAttribute("data-path")).toBe("_stm/Dentist moved.md");
    expect(item.querySelector(".cg-gc-title")?.textContent).toBe("Dentist moved");
    expect(item.querySelector(".cg-gc-reason")?.textContent).toBe("Score 0.01 is below 0.05; used 1 time in 31 days");
    expect(el.querySelector(".cg-gc-skipped")?.textContent).toBe("_stm/Open.md: open in an editor; left alone");
  });

  it("says a replaced memory is archived because a newer one replaced it", () => {
    const el = document.createElement("div");
    renderForgetList(
      el,
      aGcResult({
        candidates: [{ id: "2", title: "I live in Paris", path: "_stm/I live in Paris.md", score: 0.4, use_count: 4, age_days: 60, superseded_by: ["I moved to Berlin"] }],
      }),
      DEFAULT_CONFIG.thresholds,
    );
    expect(el.querySelector(".cg-gc-reason")?.textContent).toBe('Replaced by "I moved to Berlin": archived, kept in history');
  });

  it("says plainly when nothing would be forgotten", () => {
    const el = document.createElement("div");
    renderForgetList(el, aGcResult(), DEFAULT_CONFIG.thresholds);
    expect(el.querySelector(".cg-gc-none")?.textContent).toContain("Nothing would be forgotten");
    expect(el.querySelector(".cg-gc-skipped")).toBeNull();
  });
});

describe("GcConfirmModal", () => {
  it("runs gc only on confirmation, with the archive choice", async () => {
    const runs: boolean[] = [];
    const preview = aGcResult({
      candidates: [{ id: "1", title: "Dentist moved", path: "_stm/Dentist moved.md", score: 0.01, use_count: 1, age_days: 31, superseded_by: [] }],
    });
    const modal = new GcConfirmModal({} as never, preview, DEFAULT_CONFIG.thresholds, async (archive) => void runs.push(archive));
    modal.open();
    expect((modal as unknown as { titleEl: HTMLElement }).titleEl.textContent).toBe("Forget 1 memory?");
    const toggle = modal.contentEl.querySelector<HTMLInputElement>("input[type=checkbox]")!;
    toggle.checked = true;
    toggle.dispatchEvent(new Event("change"));
    expect(runs).toEqual([]);
    [...modal.contentEl.querySelectorAll("button")].find((b) => b.textContent === "Forget")!.click();
    await expect.poll(() => runs).toEqual([true]);
  });

  it("cannot forget when there is nothing to forget", async () => {
    const modal = new GcConfirmModal({} as never, aGcResult(), DEFAULT_CONFIG.thresholds, async () => undefined);
    modal.open();
    const forget = [...modal.contentEl.querySelectorAll("button")].find((b) => b.textContent === "Forget")!;
    expect(forget.disabled).toBe(true);
  });
});
