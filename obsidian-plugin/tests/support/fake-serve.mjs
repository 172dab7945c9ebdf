#!/usr/bin/env node
// Stands in for `cortexgraph-vault`: records its arguments, then either stays up until killed
// or (with FAKE_SERVE_FAIL) writes a reason to stderr and exits 2. With FAKE_SERVE_STOPPED it
// takes a moment to stop on SIGTERM, as the real one finishing its writes, and writes that file
// just before it exits.
import { writeFileSync } from "node:fs";

if (process.env.FAKE_SERVE_ARGS) writeFileSync(process.env.FAKE_SERVE_ARGS, JSON.stringify(process.argv.slice(2)));
if (process.env.FAKE_SERVE_FAIL) {
  process.stderr.write("cortexgraph-vault: error: port 47613 is already in use\n");
  process.exit(2);
}
setInterval(() => undefined, 1000);
process.on("SIGTERM", () => {
  setTimeout(() => {
    if (process.env.FAKE_SERVE_STOPPED) writeFileSync(process.env.FAKE_SERVE_STOPPED, "stopped");
    process.exit(0);
  }, process.env.FAKE_SERVE_STOPPED ? 300 : 0);
});
