import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, configFromSettings, inFolder, touchesMemories } from "../../src/model/backend-config";

const setting = (name: string, value: unknown) => ({ name, env: `CORTEXGRAPH_${name.toUpperCase()}`, value, origin: "env", help: "" });

describe("configFromSettings", () => {
  it("takes the backend's effective thresholds and folders", () => {
    const config = configFromSettings([
      setting("forget_threshold", 0.1),
      setting("review_danger_zone_min", "0.2"),
      setting("review_danger_zone_max", 0.4),
      setting("stm_folder", "Inbox/short-term/"),
      setting("ltm_folder", "Kept"),
    ]);
    expect(config.thresholds).toEqual({ forget: 0.1, dangerMin: 0.2, dangerMax: 0.4, promote: 0.65 });
    expect(config.folders).toEqual({ stm: "Inbox/short-term", ltm: "Kept", archive: "_archive" });
  });

  it("keeps the defaults for missing or unusable values", () => {
    expect(configFromSettings([setting("forget_threshold", "lots"), setting("stm_folder", "")])).toEqual(DEFAULT_CONFIG);
  });
});

describe("inFolder and touchesMemories", () => {
  it("matches notes under a memory folder only", () => {
    expect(inFolder("_stm/a.md", "_stm")).toBe(true);
    expect(inFolder("_stmx/a.md", "_stm")).toBe(false);
    expect(touchesMemories(["Home.md", "memories/Time zone.md"], DEFAULT_CONFIG.folders)).toBe(true);
    expect(touchesMemories(["Home.md", null, undefined], DEFAULT_CONFIG.folders)).toBe(false);
    expect(touchesMemories(["_archive/Old.md"], DEFAULT_CONFIG.folders)).toBe(true);
  });
});
