import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/model/backend-config";
import { barFraction, chipFor } from "../../src/model/chip";
import { aMemory } from "../support/memories";

const t = DEFAULT_CONFIG.thresholds;

describe("chipFor", () => {
  it("names a memory saved today and not reused fresh", () => {
    expect(chipFor(aMemory({ age_days: 0.2, use_count: 1, score: 0.95, days_until_forgotten: 40 }), t).label).toBe("Fresh");
  });

  it("calls a healthy reused memory active", () => {
    expect(chipFor(aMemory({ age_days: 5, use_count: 3, score: 0.6 }), t).kind).toBe("active");
  });

  it("calls a memory in the danger zone fading", () => {
    const chip = chipFor(aMemory({ score: 0.25, days_until_forgotten: 6 }), t);
    expect(chip.kind).toBe("fading");
    expect(chip.reason).toContain("danger zone");
  });

  it("calls a memory between the forget line and the danger zone fading too", () => {
    expect(chipFor(aMemory({ score: 0.1, days_until_forgotten: 3 }), t).kind).toBe("fading");
  });

  it("warns when a memory is below the forget line", () => {
    const chip = chipFor(aMemory({ score: 0.03, days_until_forgotten: 0 }), t);
    expect(chip.label).toBe("About to be forgotten");
    expect(chip.reason).toContain("next garbage collection");
  });

  it("warns when a memory will cross the forget line within a day", () => {
    const chip = chipFor(aMemory({ score: 0.07, days_until_forgotten: 0.5 }), t);
    expect(chip.kind).toBe("forgetting");
    expect(chip.reason).toContain("within a day");
  });

  it("shows promotable with the backend's reason", () => {
    const chip = chipFor(aMemory({ score: 0.9, promotable: true, promote_reason: "used 6 times within 14 days (≥ 5)" }), t);
    expect(chip.label).toBe("Promotable");
    expect(chip.reason).toContain("used 6 times");
  });

  it("puts promoted and archived memories beyond decay", () => {
    expect(chipFor(aMemory({ status: "promoted", score: 0.01, days_until_forgotten: null }), t).kind).toBe("promoted");
    expect(chipFor(aMemory({ status: "archived", score: 0.01 }), t).kind).toBe("archived");
  });

  it("follows the backend's thresholds, not fixed numbers", () => {
    const memory = aMemory({ score: 0.3, days_until_forgotten: 9 });
    expect(chipFor(memory, t).kind).toBe("fading");
    expect(chipFor(memory, { ...t, dangerMin: 0.1, dangerMax: 0.2 }).kind).toBe("active");
  });
});

describe("barFraction", () => {
  it("is the score, capped at a full bar", () => {
    expect(barFraction(aMemory({ score: 0.42 }))).toBeCloseTo(0.42);
    expect(barFraction(aMemory({ score: 2.3 }))).toBe(1);
    expect(barFraction(aMemory({ score: null }))).toBe(0);
    expect(barFraction(aMemory({ score: -1 }))).toBe(0);
  });
});
