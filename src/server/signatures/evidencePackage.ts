/**
 * The one download that reproduces a registration's signed documents with their evidence: a ZIP
 * (stored, not compressed: PDFs gain nothing and the bytes stay as signed) holding each document
 * as attached, `evidence.json` (every recorded fact per agreement) and `SHA256SUMS`, which
 * `sha256sum -c SHA256SUMS` checks with standard tools. The same registration gives the same
 * bytes every time: entries in a fixed order, each dated with its submission time, JSON with sorted
 * keys.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { SignatureEvidence } from '../db/signatureEvidence';

interface ZipEntry {
  name: string;
  bytes: Buffer;
  modified: Date;
}

/** MS-DOS date and time of a moment (UTC, two-second resolution), as ZIP headers hold them. */
function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    day: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/** A ZIP archive of `entries`, stored (method 0), UTF-8 names. */
function zipStored(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const crc = zlib.crc32(entry.bytes);
    const { time, day } = dosDateTime(entry.modified);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.bytes.length, 18);
    local.writeUInt32LE(entry.bytes.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(day, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(entry.bytes.length, 20);
    central.writeUInt32LE(entry.bytes.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.bytes);
    centrals.push(central, name);
    offset += local.length + name.length + entry.bytes.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** JSON with keys sorted at every level (the same facts always give the same bytes). */
function stableJson(value: unknown): string {
  const sort = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(sort)
      : node && typeof node === 'object'
        ? Object.fromEntries(
            Object.keys(node)
              .sort()
              .map((key) => [key, sort((node as Record<string, unknown>)[key])]),
          )
        : node;
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}

/** The file name of a signed document inside the package: its place and published name. */
function packagedName(index: number, evidence: SignatureEvidence): string {
  const base = evidence.documentUrl.split('/').pop() || `${evidence.part}.pdf`;
  return `documents/${String(index + 1).padStart(2, '0')}-${base.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

/**
 * The evidence package of a registration: its signed documents (bytes as stored) with the
 * recorded evidence. `bytesOf` reads a document's stored bytes by its id.
 */
export async function evidencePackage(
  registration: { registrationId: string; formId: string },
  evidence: readonly SignatureEvidence[],
  bytesOf: (documentId: string) => Promise<Buffer | null>,
): Promise<Buffer> {
  const entries: ZipEntry[] = [];
  const sums: string[] = [];
  const agreements = [];
  for (const [index, item] of evidence.entries()) {
    const bytes = (await bytesOf(item.documentId)) ?? Buffer.alloc(0);
    const name = packagedName(index, item);
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    entries.push({ name, bytes, modified: new Date(item.submittedAt) });
    sums.push(`${item.sha256}  ${name}`);
    agreements.push({
      file: name,
      prompt: item.prompt,
      document: item.documentUrl,
      sha256: item.sha256,
      sha256OfBytesInThisPackage: sha256,
      publishedSha256: item.publishedSha256,
      matchesPublishedDocument: item.publishedSha256 === item.sha256,
      // When the agreement was signed, and when the signature was submitted (issue 26).
      signedAt: item.signedAt,
      submittedAt: item.submittedAt,
      ipAddress: item.ip,
      userAgent: item.userAgent,
      user: { id: item.userId, email: item.userEmail },
      signerName: item.signerName,
      consent: {
        id: item.esignConsentId,
        document: item.consentDocumentUrl,
        sha256: item.consentSha256,
        givenAt: item.consentGivenAt,
      },
      formWordingVersion: item.schemaHash,
    });
  }
  const dated = evidence[0] ? new Date(evidence[0].submittedAt) : new Date(0);
  const json = stableJson({
    registrationId: registration.registrationId,
    formId: registration.formId,
    hashAlgorithm: 'SHA-256',
    agreements,
  });
  entries.push({ name: 'evidence.json', bytes: Buffer.from(json, 'utf8'), modified: dated });
  entries.push({
    name: 'SHA256SUMS',
    bytes: Buffer.from(`${sums.join('\n')}\n`, 'utf8'),
    modified: dated,
  });
  return zipStored(entries);
}
