/**
 * Documents in the portal's PostgreSQL: a checked upload's bytes (`stored_files`, in chunks of
 * `stored_file_chunks`), written in the transaction of the row that references them, and the
 * rows that say whose they are. Why they live here and not on disk: storage/documentStore.ts.
 */
import fs from 'node:fs';
import type { Queryable } from './transaction';

/** Records a stored upload (photo ID and the like) as belonging to a user. */
export async function insertUserDocument(
  db: Queryable,
  userId: string,
  kind: string,
  file: StoredFile,
): Promise<string> {
  await putDocument(db, file);
  const result = await db.query<{ id: string }>(
    `insert into user_documents (user_id, kind, storage_name, original_name, content_type, size)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [userId, kind, file.storageName, file.originalName, file.contentType, file.size],
  );
  return result.rows[0]!.id;
}

/**
 * A checked upload. `storageName` is random; `originalName` is for display only. Its bytes wait
 * in `spoolPath` (or `bytes`) until `putDocument` writes them beside the row that references them.
 */
export interface StoredFile {
  storageName: string;
  size: number;
  contentType: string;
  originalName: string;
  /** The request's temporary copy, deleted when the request ends. */
  spoolPath?: string;
  /** The bytes themselves, for files made in memory (demo seed). */
  bytes?: Buffer;
  /** A JPEG rendition for staff to preview, for images browsers do not show (HEIC). */
  preview?: Buffer;
}

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
