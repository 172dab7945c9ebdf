// Garbage collection and the past against the real daemon: preview, run (leaving open notes
// alone), the git commit it makes, a memory's history, an old version, restore.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GcResult } from "../../src/api/types";
import { startDaemon, type RunningDaemon } from "./daemon";

let daemon: RunningDaemon;
let preview: GcResult;
let run: GcResult;
let openInTab: string;

beforeAll(async () => {
  daemon = await startDaemon();
});

afterAll(async () => {
  await daemon?.stop();
});

describe("garbage collection", () => {
  it("previews what would be forgotten without touching a file or git", async () => {
    const head = daemon.git("rev-parse", "HEAD").trim();
    preview = await daemon.client().gc({ dryRun: true });
    expect(preview.dry_run).toBe(true);
    expect(preview.candidates.length).toBeGreaterThanOrEqual(2);
    for (const c of preview.candidates) {
      expect(c.score).toBeLessThan(0.05);
      expect(daemon.exists(c.path)).toBe(true);
    }
    expect(daemon.git("rev-parse", "HEAD").trim()).toBe(head);
    expect(daemon.git("status", "--porcelain")).toBe("");
  });

  it("leaves a note open in a tab alone and forgets the rest in one commit", async () => {
    openInTab = preview.candidates[0]!.path;
    run = await daemon.client().gc({ dryRun: false, skipPaths: [openInTab] });
    expect(run.skipped.map((s) => s.path)).toEqual([openInTab]);
    const forgotten = preview.candidates.slice(1);
    expect(run.removed_count).toBe(forgotten.length);
    expect(daemon.exists(openInTab)).toBe(true);
    for (const c of forgotten) expect(daemon.exists(c.path)).toBe(false);

    const subject = daemon.git("log", "-1", "--format=%s").trim();
    expect(subject).toContain("gc");
    expect(run.commit).toBeTruthy();
    expect(daemon.git("rev-parse", "HEAD").trim().startsWith(run.commit!.slice(0, 7))).toBe(true);
    const removed = daemon.git("show", "--name-status", "--format=", "HEAD").trim().split("\n");
    expect(removed.sort()).toEqual(forgotten.map((c) => `D\t${c.path}`).sort());
    const body = daemon.git("log", "-1", "--format=%B");
    for (const c of forgotten) expect(body).toContain(c.title);
  });
});

describe("the past", () => {
  it("lists the forgotten memories from git history", async () => {
    const forgotten = await daemon.client().forgotten();
    const gone = preview.candidates.slice(1);
    expect(forgotten.map((f) => f.id).sort()).toEqual(gone.map((c) => c.id).sort());
    const gcCommit = daemon.git("rev-parse", run.commit!).trim();
    for (const f of forgotten) expect(daemon.git("rev-parse", f.deleted_in!).trim()).toBe(gcCommit);
  });

  it("shows a forgotten memory's history and its text at an old commit", async () => {
    const gone = preview.candidates[1]!;
    const history = await daemon.client().history(gone.id!);
    expect(history.exists).toBe(false);
    expect(history.commits.map((c) => c.change)).toContain("deleted");
    const older = history.commits.find((c) => c.change !== "deleted")!;
    const version = await daemon.client().version(gone.id!, older.sha);
    expect(version.path).toBe(gone.path);
    expect(version.text).toContain(`id: ${gone.id}`);
    expect(version.text).toBe(daemon.git("show", `${older.sha}:${gone.path}`));
  });

  it("restores a forgotten memory into short-term memory and commits it", async () => {
    const gone = preview.candidates[1]!;
    const restored = await daemon.client().restore(gone.id!);
    expect(daemon.exists(restored.path)).toBe(true);
    expect(restored.path.startsWith("_stm/")).toBe(true);
    expect(daemon.read(restored.path)).toContain(`id: ${gone.id}`);
    expect(daemon.git("log", "-1", "--format=%s").trim()).toContain("restore");
    expect(daemon.git("show", "--name-status", "--format=", "HEAD").trim()).toBe(`A\t${restored.path}`);
    const back = await daemon.client().lookup(restored.path);
    // back fresh, but a restore is not a use (README: History and restore)
    expect(back).toMatchObject({ id: gone.id, status: "active", use_count: gone.use_count });
    const stillForgotten = await daemon.client().forgotten();
    expect(stillForgotten.map((f) => f.id)).not.toContain(gone.id);
  });

  it("refuses to restore an old version over a live memory, and nothing changes", async () => {
    const live = (await daemon.client().allMemories("active"))[0]!;
    const head = daemon.git("rev-parse", "HEAD").trim();
    const history = await daemon.client().history(live.id!);
    const error = await daemon.client().restore(live.id!, history.commits.at(-1)!.sha).catch((e: unknown) => e);
    expect((error as Error).message).toContain(live.path);
    expect(daemon.git("rev-parse", "HEAD").trim()).toBe(head);
  });
});
