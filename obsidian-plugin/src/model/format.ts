// Numbers and times as the view shows them. `now` is always passed in, so the output is a pure
// function of its inputs.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function formatScore(score: number | null | undefined): string {
  if (score === null || score === undefined || !Number.isFinite(score)) return "–";
  if (score > 0 && score < 0.01) return "<0.01";
  return score.toFixed(2);
}

/** "just now", "12 min ago", "5 h ago", "3 days ago", "6 weeks ago". */
export function formatAgo(iso: string, now: Date): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "unknown";
  const elapsed = Math.max(0, now.getTime() - then);
  if (elapsed < MINUTE) return "just now";
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} min ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} h ago`;
  const days = Math.floor(elapsed / DAY);
  if (days < 14) return days === 1 ? "1 day ago" : `${days} days ago`;
  if (days < 60) return `${Math.floor(days / 7)} weeks ago`;
  return `${Math.floor(days / 30)} months ago`;
}

/** When an unused memory falls below the forget line: "now", "in 5 h", "in 3 days", "never". */
export function formatUntilForgotten(days: number | null | undefined, status: string): string {
  if (status !== "active") return "never";
  if (days === null || days === undefined) return "never";
  if (days <= 0) return "now";
  const hours = days * 24;
  if (hours < 1) return "in under an hour";
  if (days < 1) return `in ${Math.floor(hours)} h`;
  if (days < 2) return "in 1 day";
  if (days < 60) return `in ${Math.floor(days)} days`;
  return `in ${Math.floor(days / 30)} months`;
}

export function formatAge(days: number): string {
  if (days < 1) return "today";
  if (days < 2) return "1 day old";
  return `${Math.floor(days)} days old`;
}

/** "2026-11-29 14:05" in local time, for commit lists. */
export function formatWhen(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
