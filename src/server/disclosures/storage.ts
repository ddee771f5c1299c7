import crypto from 'node:crypto';
import path from 'node:path';
import { putDocument } from '../db/documents';
import { readStoredOrLegacyFile } from '../storage/documentStore';
import type { Queryable } from '../db/transaction';

const STORAGE_NAME = /^[a-f0-9]{32}$/;

/**
 * Where disclosure PDFs were kept before they moved into the database (`DATA_DIR/disclosures`);
 * documents published then are still read from there.
 */
function disclosuresDir(dataDir: string): string {
  return path.join(dataDir, 'disclosures');
}

/** The path of a disclosure stored on disk by an earlier version. */
function disclosureFile(dataDir: string, storageName: string): string {
  if (!STORAGE_NAME.test(storageName)) throw new Error('invalid storage name');
  return path.join(disclosuresDir(dataDir), storageName);
}

/**
 * Stores a disclosure's bytes under a new random name in the database (`stored_files`), in the
 * caller's transaction, so the document and its row commit together and every instance serves
 * it. Answers the name.
 */
export async function writeDisclosureFile(db: Queryable, bytes: Uint8Array): Promise<string> {
  const storageName = crypto.randomBytes(16).toString('hex');
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await putDocument(db, {
    storageName,
    size: buffer.length,
    contentType: 'application/pdf',
    originalName: `${storageName}.pdf`,
    bytes: buffer,
  });
  return storageName;
}

/** A disclosure's bytes: from the database, or from disk for one published before; null when missing. */
export async function readDisclosureFile(
  db: Queryable,
  dataDir: string,
  storageName: string,
): Promise<Buffer | null> {
  return readStoredOrLegacyFile(db, storageName, disclosureFile(dataDir, storageName));
}

export function sha256Hex(bytes: Uint8Array): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}
