import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const STORAGE_NAME = /^[a-f0-9]{32}$/;

/**
 * Disclosure PDFs live apart from customer uploads (`DATA_DIR/disclosures`): they are public,
 * kept for years, and never mixed with files that carry personal data.
 */
export function disclosuresDir(dataDir: string): string {
  return path.join(dataDir, 'disclosures');
}

/** The path of a stored disclosure; refuses anything but a storage name this module made. */
export function disclosureFile(dataDir: string, storageName: string): string {
  if (!STORAGE_NAME.test(storageName)) throw new Error('invalid storage name');
  return path.join(disclosuresDir(dataDir), storageName);
}

/** Writes the bytes under a new random name and answers that name. */
export async function writeDisclosureFile(dataDir: string, bytes: Uint8Array): Promise<string> {
  await fs.promises.mkdir(disclosuresDir(dataDir), { recursive: true, mode: 0o700 });
  const storageName = crypto.randomBytes(16).toString('hex');
  await fs.promises.writeFile(disclosureFile(dataDir, storageName), bytes, {
    flag: 'wx',
    mode: 0o600,
  });
  return storageName;
}

/** Removes a stored file (cleanup after a failed publish); a missing file is not an error. */
export async function deleteDisclosureFile(dataDir: string, storageName: string): Promise<void> {
  await fs.promises.rm(disclosureFile(dataDir, storageName), { force: true });
}

export function sha256Hex(bytes: Uint8Array): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}
