import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, checkBackendUrl, portOf, settingsFrom } from "../src/settings";

describe("checkBackendUrl", () => {
  it("accepts this computer only", () => {
    expect(checkBackendUrl(" http://127.0.0.1:47613/ ")).toEqual({ url: "http://127.0.0.1:47613" });
    expect(checkBackendUrl("http://localhost:5000")).toEqual({ url: "http://localhost:5000" });
    expect(checkBackendUrl("http://[::1]:47613")).toEqual({ url: "http://[::1]:47613" });
  });

  it("refuses other hosts, other schemes, paths and non-URLs with a reason", () => {
    expect(checkBackendUrl("http://192.168.1.5:47613")).toEqual({ error: expect.stringContaining("not this computer") as string });
    expect(checkBackendUrl("https://127.0.0.1:47613")).toEqual({ error: expect.stringContaining("http://") as string });
    expect(checkBackendUrl("http://127.0.0.1:47613/api")).toEqual({ error: expect.stringContaining("only the scheme") as string });
    expect(checkBackendUrl("127.0.0.1")).toEqual({ error: expect.stringContaining("not a URL") as string });
  });
});

describe("settingsFrom", () => {
  it("gives the defaults for a first start", () => {
    expect(settingsFrom(null)).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.backendUrl).toBe("http://127.0.0.1:47613");
  });

  it("repairs out-of-range and foreign values instead of failing", () => {
    const s = settingsFrom({ backendUrl: "http://example.com", refreshSeconds: 1, timeoutSeconds: "x", startBackend: "yes", backendCommand: "  " });
    expect(s.backendUrl).toBe(DEFAULT_SETTINGS.backendUrl);
    expect(s.refreshSeconds).toBe(10);
    expect(s.timeoutSeconds).toBe(DEFAULT_SETTINGS.timeoutSeconds);
    expect(s.startBackend).toBe(false);
    expect(s.backendCommand).toBe("cortexgraph-vault");
  });

  it("never carries a token into the saved settings", () => {
    const s = settingsFrom({ token: "s3cret", tokenSecret: "my-token" }) as unknown as Record<string, unknown>;
    expect(Object.values(s)).not.toContain("s3cret");
    expect(s.tokenSecret).toBe("my-token");
  });

  it("reads the port from the URL", () => {
    expect(portOf("http://127.0.0.1:47613")).toBe(47613);
  });
});
