import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { backendConfigDir, readTokenFile } from "../../src/backend/token-file";

describe("backendConfigDir", () => {
  it("matches where the backend keeps its config on each system", () => {
    expect(backendConfigDir("linux", {}, "/home/maya")).toBe("/home/maya/.config/cortexgraph-vault");
    expect(backendConfigDir("linux", { XDG_CONFIG_HOME: "/cfg" }, "/home/maya")).toBe("/cfg/cortexgraph-vault");
    expect(backendConfigDir("darwin", {}, "/Users/maya")).toBe("/Users/maya/Library/Application Support/cortexgraph-vault");
    expect(backendConfigDir("win32", { LOCALAPPDATA: "C:/Users/maya/AppData/Local" }, "C:/Users/maya")).toBe(
      join("C:/Users/maya/AppData/Local", "cortexgraph-vault", "cortexgraph-vault"),
    );
    expect(backendConfigDir("linux", { CORTEXGRAPH_CONFIG_DIR: "/tmp/x" }, "/home/maya")).toBe("/tmp/x");
  });
});

describe("readTokenFile", () => {
  it("reads the token without its newline, and null when there is none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cg-token-"));
    try {
      writeFileSync(join(dir, "token"), "abc123\n");
      expect(await readTokenFile(join(dir, "token"))).toBe("abc123");
      expect(await readTokenFile(join(dir, "missing"))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
