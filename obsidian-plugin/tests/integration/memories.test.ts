// The plugin's own client against the real daemon: listing, looking up, reinforcing and
// promoting, checked against the files on disk and the git log.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendOffline, InvalidRequest, NotFound, Unauthorized } from "../../src/api/errors";
import type { MemoryView } from "../../src/api/types";
import { DEFAULT_CONFIG } from "../../src/model/backend-config";
import { chipFor } from "../../src/model/chip";
import { CortexClient } from "../../src/api/client";
import { fetchTransport } from "../support/fetch-transport";
import { nodeTimers } from "../support/fake-transport";
import { freePort, frontmatterField, startDaemon, type RunningDaemon } from "./daemon";

let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon();
});

afterAll(async () => {
  await daemon?.stop();
});

describe("listing memories", () => {
  it("lists every short-term memory of the vault with live scores, highest first", async () => {
    const memories = await daemon.client().allMemories("active", "score");
    const onDisk = daemon.git("ls-files", "_stm").trim().split("\n");
    expect(memories.map((m) => m.path).sort()).toEqual(onDisk.sort());
    const scores = memories.map((m) => m.score ?? 0);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const m of memories) {
      expect(m.status).toBe("active");
      expect(frontmatterField(daemon.read(m.path), "use_count")).toBe(String(m.use_count));
    }
  });

  it("gives the view what its chips need: some memories fading, promotable and about to be forgotten", async () => {
    const memories = await daemon.client().allMemories("active");
    const kinds = new Set(memories.map((m) => chipFor(m, DEFAULT_CONFIG.thresholds).kind));
    for (const kind of ["promotable", "forgetting", "active"] as const) expect(kinds.has(kind)).toBe(true);
  });

  it("lists promoted memories apart", async () => {
    const promoted = await daemon.client().allMemories("promoted");
    expect(promoted.length).toBeGreaterThan(0);
    expect(promoted.every((m) => m.path.startsWith("memories/") && m.status === "promoted")).toBe(true);
  });

  it("reports the effective configuration the chips are drawn against", async () => {
    const config = await daemon.client().config();
    const names = config.settings.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["forget_threshold", "review_danger_zone_min", "stm_folder"]));
  });
});

describe("looking up the active note", () => {
  it("finds the memory stored at a path and says null for an ordinary note", async () => {
    const [first] = await daemon.client().allMemories("active");
    const found = await daemon.client().lookup(first!.path);
    expect(found?.id).toBe(first!.id);
    expect(await daemon.client().lookup("Home.md")).toBeNull();
  });
});

describe("related to a note", () => {
  it("finds the memories and notes about the same thing as a note, never the note itself", async () => {
    const client = daemon.client();
    const fromMemory = await client.related("_stm/Half marathon goal.md", 5);
    expect(fromMemory.results[0]?.path).toBe("Areas/Running.md");
    expect(fromMemory.results.map((h) => h.path)).not.toContain("_stm/Half marathon goal.md");
    expect(fromMemory.results.length).toBeLessThanOrEqual(5);
    const fromNote = await client.related("Areas/Running.md", 8);
    const paths = fromNote.results.map((h) => h.path);
    expect(paths).toContain("_stm/Half marathon goal.md");
    expect(paths).not.toContain("Areas/Running.md");
    const memory = fromNote.results.find((h) => h.path === "_stm/Half marathon goal.md")!;
    expect(memory).toMatchObject({ source: "stm", status: "active", title: "Half marathon goal" });
    expect(memory.id).toBe((await client.lookup(memory.path))?.id);
  });

  it("answers NotFound for a note the backend does not hold and refuses paths out of the vault", async () => {
    const missing = await daemon.client().related("Inbox/Not written yet.md").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFound);
    expect((missing as Error).message).toContain("Inbox/Not written yet.md");
    await expect(daemon.client().related("../outside.md")).rejects.toBeInstanceOf(InvalidRequest);
  });
});

describe("reinforcing", () => {
  it("counts a use: the file's use_count goes up, last_used moves to now, the score rises", async () => {
    const memories = await daemon.client().allMemories("active");
    const fading = memories.find((m) => chipFor(m, DEFAULT_CONFIG.thresholds).kind === "fading") as MemoryView;
    expect(fading).toBeDefined();
    const before = daemon.read(fading.path);
    const result = await daemon.client().touch(fading.id!);
    expect(result.use_count).toBe(fading.use_count + 1);
    expect(result.new_score).toBeGreaterThan(result.old_score);
    const after = daemon.read(fading.path);
    expect(frontmatterField(after, "use_count")).toBe(String(fading.use_count + 1));
    expect(frontmatterField(after, "last_used")).not.toBe(frontmatterField(before, "last_used"));
    // Only the changed fields: the body a person wrote is untouched.
    expect(after.split("\n---\n")[1]).toBe(before.split("\n---\n")[1]);
    const again = await daemon.client().lookup(fading.path);
    expect(again?.use_count).toBe(fading.use_count + 1);
  });
});

describe("promoting", () => {
  it("moves a promotable memory into the vault for good and commits the move", async () => {
    const memories = await daemon.client().allMemories("active");
    const candidate = memories.find((m) => m.promotable)!;
    expect(candidate).toBeDefined();
    const headBefore = daemon.git("rev-parse", "HEAD").trim();
    const result = await daemon.client().promote(candidate.id!);
    expect(result.promoted_count).toBe(1);
    expect(result.promoted_ids).toEqual([candidate.id]);
    const newPath = result.moved[candidate.path]!;
    expect(newPath.startsWith("memories/")).toBe(true);
    expect(daemon.exists(candidate.path)).toBe(false);
    expect(frontmatterField(daemon.read(newPath), "status")).toBe("promoted");
    expect(daemon.git("rev-parse", "HEAD").trim()).not.toBe(headBefore);
    expect(result.commit && daemon.git("rev-parse", "HEAD").trim().startsWith(result.commit.slice(0, 7))).toBe(true);
    const changed = daemon.git("show", "--name-status", "--format=", "HEAD");
    expect(changed).toContain(newPath);
    expect(await daemon.client().lookup(newPath)).toMatchObject({ id: candidate.id, status: "promoted" });
  });

  it("refuses to promote what does not exist, naming it", async () => {
    const error = await daemon.client().promote("no-such-memory-at-all").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFound);
    expect((error as Error).message).toContain("no-such-memory-at-all");
  });
});

describe("authentication and absence", () => {
  it("answers health without a token but refuses the API without the right one", async () => {
    expect(await daemon.client(null).health()).toBe(true);
    await expect(daemon.client(null).listMemories()).rejects.toBeInstanceOf(Unauthorized);
    await expect(daemon.client("not-the-token").listMemories()).rejects.toBeInstanceOf(Unauthorized);
  });

  it("sees no backend on a port where nothing listens", async () => {
    const port = await freePort();
    const client = new CortexClient({ baseUrl: `http://127.0.0.1:${port}`, token: () => "t", transport: fetchTransport, timeoutMs: 5_000, timers: nodeTimers });
    await expect(client.health()).rejects.toBeInstanceOf(BackendOffline);
  });
});
