/** Small helpers of the bench: statistics, timing, temp folders, ports, a static file server. */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The p-th percentile (0-100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

/** A fresh temp folder, readable by others (embedded PostgreSQL runs as its own user under root). */
export function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  fs.chmodSync(dir, 0o755);
  return dir;
}

export function removeDir(dir: string | undefined): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

/** A TCP port free on loopback now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/** Serves `root` on 127.0.0.1 (module scripts need http, not file://). */
export async function serveStatic(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = path.join(root, path.normalize(pathname).replace(/^([/\\])+/, ''));
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    });
    fs.createReadStream(file).pipe(response);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
export const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const ms = (value: number) =>
  Number.isNaN(value)
    ? 'n/a'
    : value < 1
      ? `${(value * 1000).toFixed(1)} µs`
      : `${value.toFixed(value < 10 ? 2 : 1)} ms`;

/**
 * Whether a row's goal is met: `null` when the row has no goal, `'not measured'` when the figure
 * or the baseline it is judged against was not taken (never counted as met).
 */
export type Met = boolean | null | 'not measured';

/** One row of the printed table. */
export interface Row {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  goal: string;
  met: Met;
}

/** A goal as a ratio of the figure to its baseline taken in the same run (issue 29). */
type RatioGoal = { atMost: number } | { atLeast: number };

const measured = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n);

/**
 * Judges `value` against `baseline` by their ratio. A figure or baseline that was not measured
 * (undefined, NaN, infinite) or a baseline of 0 (no ratio) is `'not measured'`, never met.
 */
export function judgeRatio(
  value: number | undefined,
  baseline: number | undefined,
  goal: RatioGoal,
): { ratio: number | undefined; met: Met } {
  if (!measured(value) || !measured(baseline) || baseline <= 0) {
    return { ratio: undefined, met: 'not measured' };
  }
  const r = value / baseline;
  return { ratio: r, met: 'atMost' in goal ? r <= goal.atMost : r >= goal.atLeast };
}

const describeGoal = (goal: RatioGoal) =>
  'atMost' in goal ? `≤ ${goal.atMost} ×` : `≥ ${goal.atLeast} ×`;

/**
 * A row judged by its ratio to the baseline; the absolute figures stay in the table. `also`
 * adds a condition the figure must meet besides its ratio (every request answered, say); it
 * cannot turn a missing measurement into a met goal.
 */
export function ratioRow(options: {
  figure: string;
  value: number | undefined;
  baseline: number | undefined;
  /** How the figure and the baseline are printed (ms, req/s, MB). */
  show: (n: number) => string;
  /** Words after the baseline's number: what it is. */
  baselineIs: string;
  goal: RatioGoal;
  /** Printed after the value (a p99, a count). */
  valueNote?: string;
  also?: { ok: boolean; goal: string };
}): Row {
  const { ratio: r, met } = judgeRatio(options.value, options.baseline, options.goal);
  const shown = (n: number | undefined) => (measured(n) ? options.show(n) : 'not measured');
  return {
    figure: options.figure,
    value: shown(options.value) + (options.valueNote ? `; ${options.valueNote}` : ''),
    baseline: `${shown(options.baseline)} ${options.baselineIs}`,
    ratio: r === undefined ? 'n/a' : r.toFixed(r < 0.1 ? 3 : 2),
    goal: describeGoal(options.goal) + (options.also ? `, ${options.also.goal}` : ''),
    met: met === true && options.also ? options.also.ok : met,
  };
}

export const ratio = (a: number, b: number) =>
  Number.isFinite(a / b) ? `${(a / b).toFixed(a / b < 0.1 ? 3 : 2)}` : 'n/a';

export function printTable(rows: Row[]): string {
  const head: Row = {
    figure: 'figure',
    value: 'value',
    baseline: 'baseline',
    ratio: 'ratio',
    goal: 'goal',
    met: null,
  };
  const cells = (row: Row) => [
    row.figure,
    row.value,
    row.baseline,
    row.ratio,
    row.goal,
    row === head
      ? 'met?'
      : row.met === null
        ? '-'
        : row.met === 'not measured'
          ? 'not measured'
          : row.met
            ? 'yes'
            : 'NO',
  ];
  const all = [head, ...rows].map(cells);
  const widths = all[0]!.map((_, i) => Math.max(...all.map((line) => line[i]!.length)));
  const line = (values: string[]) =>
    `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(all[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...all.slice(1).map(line),
  ].join('\n');
}

/**
 * The bench's n-th person's name in letters ("Persona", "Personb", …, "Personaa"): the form's
 * names refuse digits, so "Person1" would make every copied person an invalid answer.
 */
export function personName(index: number): string {
  let suffix = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    suffix = String.fromCharCode(97 + ((n - 1) % 26)) + suffix;
  }
  return `Person${suffix}`;
}
