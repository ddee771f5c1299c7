/**
 * Where checked uploads live once accepted: the `stored_files` table of the portal's PostgreSQL.
 * Every instance behind a load balancer reaches them, and they are written inside the
 * transaction of the row that references them, so a registration and its documents commit (or
 * roll back) together. An S3-compatible store could sit behind the same functions
 * (`putDocument`, `readStoredBytes` in db/documents.ts) at a larger scale; PostgreSQL is the
 * simple choice for a portal's volume.
 *
 * A request first spools each upload to `DATA_DIR/uploads/spool` to check its content; the spool
 * copy is deleted when the request ends, whatever happened, since no row ever references it.
 * Files stored on disk by earlier versions (`DATA_DIR/uploads/<name>`) are still read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readStoredBytes, type StoredFile } from '../db/documents';
import type { Queryable } from '../db/transaction';
import { spoolDir, storedPath } from './uploads';

/** A stored document's bytes: from the database, or from disk for files stored before it; null when missing. */
export async function readDocument(
  db: Queryable,
  dataDir: string,
  storageName: string,
): Promise<Buffer | null> {
  return readStoredOrLegacyFile(db, storageName, storedPath(dataDir, storageName));
}

/**
 * Bytes kept in the database under `storageName`, else the file at `legacyPath` where they were
 * written before the database held them (documents, disclosures); null when neither has them.
 */
export async function readStoredOrLegacyFile(
  db: Queryable,
  storageName: string,
  legacyPath: string,
): Promise<Buffer | null> {
  const stored = await readStoredBytes(db, storageName);
  if (stored) return stored;
  try {
    return await fs.promises.readFile(legacyPath);
  } catch {
    return null;
  }
}

/** Spooled uploads older than this belong to no running request. */
const SPOOL_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * The orphan sweep: deletes spool files no request still owns (a process killed mid-request
 * leaves them). Never touches a stored document: those live in the database, and a document
 * row's deletion takes its bytes along (a trigger, migration 060).
 */
async function sweepSpool(dataDir: string, now = Date.now()): Promise<number> {
  let removed = 0;
  const dir = spoolDir(dataDir);
  const names = fs.existsSync(dir) ? await fs.promises.readdir(dir) : [];
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    const owner = Number(name.split('.')[0]);
    const ownerGone = owner !== process.pid && !processAlive(owner);
    if (stat && (ownerGone || now - stat.mtimeMs > SPOOL_MAX_AGE_MS)) {
      await fs.promises.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Deletes each request's spool copies when it ends (answered, failed or aborted), and sweeps
 * orphans at start and every hour.
 */
export function registerSpoolCleanup(app: FastifyInstance): void {
  const cleanup = async (files: string[]) => {
    await Promise.all(files.map((file) => fs.promises.rm(file, { force: true })));
  };
  // A callback hook: most requests spool nothing, and pay no promise for it.
  app.addHook('onResponse', (request, _reply, done) => {
    const files = spooled.get(request);
    if (!files) return done();
    spooled.delete(request);
    cleanup(files).then(() => done(), done);
  });
  app.addHook('onRequestAbort', async (request) => {
    const files = spooled.get(request);
    if (!files) return;
    spooled.delete(request);
    await cleanup(files);
  });
  const sweep = () =>
    void sweepSpool(app.config.dataDir).catch((err: unknown) =>
      app.log.warn({ err }, 'spool sweep failed'),
    );
  const timer = setInterval(sweep, SPOOL_MAX_AGE_MS);
  timer.unref();
  app.addHook('onReady', async () => sweep());
  app.addHook('onClose', async () => clearInterval(timer));
}

const spooled = new WeakMap<FastifyRequest, string[]>();

/** Remembers a request's spool copy for `registerSpoolCleanup`. */
export function trackSpooled(request: FastifyRequest, file: StoredFile): void {
  if (!file.spoolPath) return;
  const files = spooled.get(request) ?? [];
  files.push(file.spoolPath);
  spooled.set(request, files);
}
