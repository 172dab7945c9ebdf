import { describe, expect, it } from "vitest";
import { formatAge, formatAgo, formatScore, formatUntilForgotten, plural } from "../../src/model/format";
import { NOW } from "../support/memories";

describe("formatScore", () => {
  it("shows two decimals, a floor for tiny scores and a dash for none", () => {
    expect(formatScore(0.4567)).toBe("0.46");
    expect(formatScore(1.8)).toBe("1.80");
    expect(formatScore(0.004)).toBe("<0.01");
    expect(formatScore(0)).toBe("0.00");
    expect(formatScore(null)).toBe("–");
  });
});

describe("formatAgo", () => {
  const ago = (ms: number) => formatAgo(new Date(NOW.getTime() - ms).toISOString(), NOW);
  it("speaks in the largest sensible unit", () => {
    expect(ago(10_000)).toBe("just now");
    expect(ago(12 * 60_000)).toBe("12 min ago");
    expect(ago(5 * 3_600_000)).toBe("5 h ago");
    expect(ago(26 * 3_600_000)).toBe("1 day ago");
    expect(ago(3 * 86_400_000)).toBe("3 days ago");
    expect(ago(21 * 86_400_000)).toBe("3 weeks ago");
    expect(ago(90 * 86_400_000)).toBe("3 months ago");
  });

  it("treats a time in the future as now and a bad time as unknown", () => {
    expect(formatAgo("2027-01-01T00:00:00Z", NOW)).toBe("just now");
    expect(formatAgo("yesterday", NOW)).toBe("unknown");
  });
});

describe("formatUntilForgotten", () => {
  it("counts down for active memories", () => {
    expect(formatUntilForgotten(0, "active")).toBe("now");
    expect(formatUntilForgotten(0.02, "active")).toBe("in under an hour");
    expect(formatUntilForgotten(0.5, "active")).toBe("in 12 h");
    expect(formatUntilForgotten(1.5, "active")).toBe("in 1 day");
    expect(formatUntilForgotten(12.9, "active")).toBe("in 12 days");
    expect(formatUntilForgotten(200, "active")).toBe("in 6 months");
  });

  it("says never for promoted memories and unbounded ones", () => {
    expect(formatUntilForgotten(null, "active")).toBe("never");
    expect(formatUntilForgotten(3, "promoted")).toBe("never");
  });
});

describe("formatAge and plural", () => {
  it("reads naturally", () => {
    expect(formatAge(0.3)).toBe("today");
    expect(formatAge(1.2)).toBe("1 day old");
    expect(formatAge(9.9)).toBe("9 days old");
    expect(plural(1, "use")).toBe("1 use");
    expect(plural(3, "memory", "memories")).toBe("3 memories");
  });
});
