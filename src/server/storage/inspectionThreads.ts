/**
 * Runs the heavy content checks in worker threads (inspection.worker.ts): judging a PDF and
 * decoding a HEIC photo, both synchronous work that would otherwise hold up every request. At
 * most two run at once (the machine's cores), later ones wait their turn. Each is bounded: a
 * thread that takes longer than {@link CHECK_TIMEOUT_MS} is ended and the file refused; a
 * thread's heap is capped, and one that dies takes only its own check with it (the file is
 * refused, the next check gets a new thread).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface InspectionRequest {
  id: number;
  kind: 'pdf' | 'heic';
  file: string;
}
/** What a PDF inspection found: the reason names a kind of content, never document text. */
export type PdfInspectionResult =
  | { verdict: 'passive'; pages: number }
  | { verdict: 'active'; reason: string }
  /** Its streams unpack past the bounds of pdfStreams.ts. */
  | { verdict: 'inflating' }
  | { verdict: 'unreadable'; reason: string };
/** A decoded HEIC photo: its primary image as RGBA pixels. */
export type HeicDecodeResult =
  | { verdict: 'decoded'; width: number; height: number; rgba: Uint8Array }
  | { verdict: 'unreadable'; reason: string };
type InspectionResult = PdfInspectionResult | HeicDecodeResult;

/** Longest one check may take before its file is refused (a 10 MB PDF takes well under 2 s). */
const CHECK_TIMEOUT_MS = 20_000;
/** Heap of one inspection thread; decoded streams are bounded separately (pdfEngine.ts). */
const WORKER_HEAP_MB = 256;
const POOL_SIZE = 2;
/** An idle thread ends after this, giving its memory back (starting one takes 0.2 to 2 s). */
const IDLE_MS = 10 * 60_000;

interface Job {
  kind: InspectionRequest['kind'];
  file: string;
  resolve: (result: InspectionResult) => void;
  reject: (error: Error) => void;
}

/**
 * The inspection thread failed for a reason of the server's, not the file's (it could not start,
 * or threw outside a check): a server error, logged as such, never a verdict on the upload.
 */
export class InspectionThreadError extends Error {
  override name = 'InspectionThreadError';
}
interface Inspector {
  worker: Worker;
  job: (Job & { id: number; timer: NodeJS.Timeout }) | null;
  idleTimer: NodeJS.Timeout | null;
}

const inspectors = new Set<Inspector>();
const queue: Job[] = [];
let nextId = 1;

/** Checks the PDF at `file` in an inspection thread. Never rejects: failures are `unreadable`. */
export function inspectPdf(file: string): Promise<PdfInspectionResult> {
  return run('pdf', file) as Promise<PdfInspectionResult>;
}

/** Decodes the HEIC photo at `file` in an inspection thread. Never rejects. */
export function decodeHeic(file: string): Promise<HeicDecodeResult> {
  return run('heic', file) as Promise<HeicDecodeResult>;
}

function run(kind: Job['kind'], file: string): Promise<InspectionResult> {
  return new Promise((resolve, reject) => {
    queue.push({ kind, file, resolve, reject });
    dispatch();
  });
}

/** Starts an inspection thread ahead of the first upload (the server calls it once listening). */
export function warmPdfInspection(): void {
  if (inspectors.size > 0) return;
  const inspector = startInspector();
  inspector.idleTimer = setTimeout(() => retire(inspector), IDLE_MS);
  inspector.idleTimer.unref();
}

function dispatch(): void {
  while (queue.length > 0) {
    let inspector = [...inspectors].find((candidate) => candidate.job === null);
    if (!inspector) {
      if (inspectors.size >= POOL_SIZE) return;
      inspector = startInspector();
    }
    const job = queue.shift()!;
    const id = nextId++;
    if (inspector.idleTimer) clearTimeout(inspector.idleTimer);
    inspector.idleTimer = null;
    const running = inspector;
    const timer = setTimeout(() => {
      finish(running, { verdict: 'unreadable', reason: 'timeout' });
      retire(running);
    }, CHECK_TIMEOUT_MS);
    inspector.job = { ...job, id, timer };
    inspector.worker.postMessage({
      id,
      kind: job.kind,
      file: job.file,
    } satisfies InspectionRequest);
  }
}

function finish(inspector: Inspector, result: InspectionResult | Error): void {
  const job = inspector.job;
  if (!job) return;
  clearTimeout(job.timer);
  inspector.job = null;
  if (result instanceof Error) job.reject(result);
  else job.resolve(result);
}

function retire(
  inspector: Inspector,
  outcome: InspectionResult | Error = { verdict: 'unreadable', reason: 'thread ended' },
): void {
  if (!inspectors.delete(inspector)) return;
  if (inspector.idleTimer) clearTimeout(inspector.idleTimer);
  finish(inspector, outcome);
  void inspector.worker.terminate();
  dispatch();
}

function startInspector(): Inspector {
  const worker = spawnWorker();
  worker.unref(); // an idle inspection thread never keeps the process alive
  const inspector: Inspector = { worker, job: null, idleTimer: null };
  inspectors.add(inspector);
  worker.on('message', (message: { id?: number; result?: InspectionResult; failure?: string }) => {
    if (inspector.job?.id !== message.id) return;
    if (message.failure) {
      retire(inspector, new InspectionThreadError(`content inspection failed: ${message.failure}`));
    } else if (message.result) {
      finish(inspector, message.result);
      inspector.idleTimer = setTimeout(() => retire(inspector), IDLE_MS);
      inspector.idleTimer.unref();
      dispatch();
    }
  });
  // Out of memory (the file's doing): the file is refused, the thread replaced. Anything else
  // is the server's fault (a thread that cannot start): the check fails as a server error.
  worker.on('error', (error) => {
    const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
    retire(
      inspector,
      outOfMemory
        ? { verdict: 'unreadable', reason: 'out of memory' }
        : new InspectionThreadError(`content inspection thread failed: ${error.message}`),
    );
  });
  worker.on('exit', () => retire(inspector));
  return inspector;
}

/**
 * The compiled worker beside this module, or the TypeScript source run through tsx (development
 * and tests run the sources; tsx's loader is registered inside the thread, which does not
 * inherit it).
 */
function spawnWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  const compiled = new URL('./inspection.worker.js', import.meta.url);
  if (compiled.protocol === 'file:' && fs.existsSync(fileURLToPath(compiled))) {
    return new Worker(compiled, { resourceLimits });
  }
  const source = new URL('./inspection.worker.ts', import.meta.url);
  const tsx = tsxEsmApi();
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source.href)}); });`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

/** tsx's ES module API (its `import` export; require.resolve would name the CommonJS one). */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const { exports } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(path.join(path.dirname(manifest), exports['./esm/api']!.import.default))
    .href;
}
