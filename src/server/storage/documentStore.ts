/**
 * Where checked uploads live once accepted: the `stored_files` table of the portal's PostgreSQL.
 * Every instance behind a load balancer reaches them, and they are written inside the
 * transaction of the row that references them, so a registration and its documents commit (or
 * roll back) together. An S3-compatible store could sit behind the same three functions at a
 * larger scale; PostgreSQL is the simple choice for a portal's volume.
 *
 * A request first spools each upload to `DATA_DIR/uploads/spool` to check its content; the spool
 * copy is deleted when the request ends, whatever happened, since no row ever references it.
 * Files stored on disk by earlier versions (`DATA_DIR/uploads/<name>`) are still read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/transaction';
import { spoolDir, storedPath, type StoredFile } from './uploads';

/**
 * How much of a document one row holds (migration 107). A 10 MB upload is read from its spool
 * copy and sent a chunk at a time: the server never holds more than one chunk of it, and the
 * database never parses one 10 MB parameter.
 */
const CHUNK_BYTES = 2 * 1024 * 1024;

/**
 * Writes a checked upload's bytes beside the row that references it (same transaction). A name
 * already stored (the same held file handed on) is left as it is.
 */
export async function putDocument(db: Queryable, file: StoredFile): Promise<void> {
  const source = file.bytes ?? file.spoolPath;
  if (!source) return; // a file stored on disk by an earlier version: nothing to copy
  const created = await db.query(
    `insert into stored_files (storage_name, content_type, size, preview)
     values ($1, $2, $3, $4)
     on conflict (storage_name) do nothing`,
    [file.storageName, file.contentType, file.size, file.preview ?? null],
  );
  if (created.rowCount === 0) return;
  let seq = 0;
  let size = 0;
  for await (const chunk of documentChunks(source)) {
    await db.query(
      'insert into stored_file_chunks (storage_name, seq, bytes) values ($1, $2, $3)',
      [file.storageName, seq++, chunk],
    );
    size += chunk.length;
  }
  // The size the row claims is the bytes stored (a spool copy is never changed, but the row must
  // not lie if it were).
  if (size !== file.size) {
    await db.query('update stored_files set size = $2 where storage_name = $1', [
      file.storageName,
      size,
    ]);
  }
}

/** A document's bytes in chunks of CHUNK_BYTES, from memory or from its spool copy. */
async function* documentChunks(source: Buffer | string): AsyncGenerator<Buffer> {
  if (typeof source !== 'string') {
    for (let at = 0; at < source.length; at += CHUNK_BYTES) {
      yield source.subarray(at, at + CHUNK_BYTES);
    }
    return;
  }
  const handle = await fs.promises.open(source, 'r');
  try {
    for (;;) {
      // A fresh buffer per chunk: the query may still hold the last one while this one is read.
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** The JPEG rendition stored beside a document (a HEIC photo's), or null. */
export async function readDocumentPreview(
  db: Queryable,
  storageName: string,
): Promise<Buffer | null> {
  const result = await db.query<{ preview: Buffer | null }>(
    'select preview from stored_files where storage_name = $1',
    [storageName],
  );
  return result.rows[0]?.preview ?? null;
}

/** A stored document's bytes: from the database, or from disk for files stored before it; null when missing. */
export async function readDocument(
  db: Queryable,
  dataDir: string,
  storageName: string,
): Promise<Buffer | null> {
  const stored = await readStoredBytes(db, storageName);
  if (stored) return stored;
  try {
    return await fs.promises.readFile(storedPath(dataDir, storageName));
  } catch {
    return null;
  }
}

/**
 * The bytes stored in the database under `storageName`, or null: its chunks joined (the
 * chunks come as they are and are joined here, not by the database), or the whole value of a
 * row stored before migration 107.
 */
export async function readStoredBytes(db: Queryable, storageName: string): Promise<Buffer | null> {
  const result = await db.query<{ whole: Buffer | null; chunk: Buffer | null }>(
    `select f.bytes as whole, c.bytes as chunk
       from stored_files f left join stored_file_chunks c using (storage_name)
      where f.storage_name = $1
      order by c.seq`,
    [storageName],
  );
  if (result.rows.length === 0) return null;
  const whole = result.rows[0]!.whole;
  if (whole) return whole;
  const chunks = result.rows.flatMap((row) => (row.chunk ? [row.chunk] : []));
  return chunks.length > 0 ? Buffer.concat(chunks) : null;
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
