/**
 * A HEIC photo without its metadata (issue 39 §5): a phone stores EXIF (GPS, camera, time) and
 * XMP as items of their own in the HEIF `meta` box (item types `Exif`, `mime`, `uri `), beside the
 * picture's items. Those items are taken out of the item information (`iinf`), locations
 * (`iloc`), references (`iref`) and property associations (`ipma`), and the bytes they pointed at
 * are overwritten with zeros; a `free` box of the size removed follows the `meta` box, so every
 * other item's offset still points at its data and no picture byte is touched. The orientation of
 * a HEIF picture is its `irot`/`imir` properties (which readers apply, not EXIF's tag): kept.
 */

/** Item types that hold metadata, never pixels (ISO/IEC 23008-12 §A.2, §6.4). */
const METADATA_ITEMS = new Set(['Exif', 'mime', 'uri ']);

interface Box {
  type: string;
  start: number;
  /** Where the body starts (after the size, type and any 64-bit size). */
  body: number;
  end: number;
}

/** The boxes between `start` and `end`; null when one overruns. */
function boxesIn(bytes: Buffer, start: number, end: number): Box[] | null {
  const boxes: Box[] = [];
  let at = start;
  while (at < end) {
    if (at + 8 > end) return null;
    let size = bytes.readUInt32BE(at);
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > end) return null;
      size = Number(bytes.readBigUInt64BE(at + 8));
      body = at + 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < body - at || at + size > end) return null;
    boxes.push({ type: bytes.toString('latin1', at + 4, at + 8), start: at, body, end: at + size });
    at += size;
  }
  return boxes;
}

function box(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** A reader over one box's body; every read past its end throws (the caller answers null). */
class Reader {
  constructor(
    private readonly bytes: Buffer,
    public at: number,
    private readonly end: number,
  ) {}
  uint(size: number): number {
    if (size === 0) return 0;
    if (this.at + size > this.end) throw new RangeError('box overrun');
    const value =
      size === 8
        ? Number(this.bytes.readBigUInt64BE(this.at))
        : this.bytes.readUIntBE(this.at, size);
    this.at += size;
    return value;
  }
  string(): string {
    const zero = this.bytes.indexOf(0, this.at);
    if (zero < 0 || zero >= this.end) throw new RangeError('box overrun');
    const text = this.bytes.toString('latin1', this.at, zero);
    this.at = zero + 1;
    return text;
  }
}

/** The ids of the metadata items named in `iinf`. */
function metadataItems(bytes: Buffer, iinf: Box): Set<number> {
  const read = new Reader(bytes, iinf.body, iinf.end);
  const version = read.uint(1);
  read.uint(3);
  read.uint(version === 0 ? 2 : 4); // entry count: the boxes that follow are counted instead
  const found = new Set<number>();
  for (const infe of boxesIn(bytes, read.at, iinf.end) ?? []) {
    if (infe.type !== 'infe') continue;
    const entry = new Reader(bytes, infe.body, infe.end);
    const infeVersion = entry.uint(1);
    entry.uint(3);
    if (infeVersion < 2) continue; // no item type (HEIF writes version 2 or 3)
    const id = entry.uint(infeVersion === 2 ? 2 : 4);
    entry.uint(2); // protection index
    const type = bytes.toString('latin1', entry.at, entry.at + 4);
    if (METADATA_ITEMS.has(type)) found.add(id);
  }
  return found;
}

/** `iinf` without the entries of `drop`. */
function iinfWithout(bytes: Buffer, iinf: Box, drop: Set<number>): Buffer {
  const version = bytes[iinf.body]!;
  const countSize = version === 0 ? 2 : 4;
  const kept = (boxesIn(bytes, iinf.body + 4 + countSize, iinf.end) ?? []).filter((infe) => {
    if (infe.type !== 'infe' || bytes[infe.body]! < 2) return true;
    const id = bytes.readUIntBE(infe.body + 4, bytes[infe.body] === 2 ? 2 : 4);
    return !drop.has(id);
  });
  const head = Buffer.from(bytes.subarray(iinf.body, iinf.body + 4 + countSize));
  head.writeUIntBE(kept.length, 4, countSize);
  return box('iinf', Buffer.concat([head, ...kept.map((b) => bytes.subarray(b.start, b.end))]));
}

interface Extent {
  offset: number;
  length: number;
}

interface Location {
  id: number;
  /** The entry's bytes within `iloc`. */
  start: number;
  end: number;
  method: number;
  dataReference: number;
  extents: Extent[];
}

function locations(
  bytes: Buffer,
  iloc: Box,
): { head: Buffer; countSize: number; items: Location[] } {
  const read = new Reader(bytes, iloc.body, iloc.end);
  const version = read.uint(1);
  read.uint(3);
  const sizes = read.uint(1);
  const more = read.uint(1);
  const [offsetSize, lengthSize, baseSize] = [sizes >> 4, sizes & 15, more >> 4];
  const indexSize = version === 1 || version === 2 ? more & 15 : 0;
  const countSize = version < 2 ? 2 : 4;
  const count = read.uint(countSize);
  const head = Buffer.from(bytes.subarray(iloc.body, read.at));
  const items: Location[] = [];
  for (let n = 0; n < count; n++) {
    const start = read.at;
    const id = read.uint(version < 2 ? 2 : 4);
    const method = version === 1 || version === 2 ? read.uint(2) & 15 : 0;
    const dataReference = read.uint(2);
    const base = read.uint(baseSize);
    const extents: Extent[] = [];
    for (let e = read.uint(2); e > 0; e--) {
      read.uint(indexSize);
      const offset = base + read.uint(offsetSize);
      extents.push({ offset, length: read.uint(lengthSize) });
    }
    items.push({ id, start, end: read.at, method, dataReference, extents });
  }
  return { head, countSize, items };
}

/** `iref` without references from `drop`, and with `drop` out of every reference's targets. */
function irefWithout(bytes: Buffer, iref: Box, drop: Set<number>): Buffer {
  const idSize = bytes[iref.body] === 0 ? 2 : 4;
  const kept: Buffer[] = [Buffer.from(bytes.subarray(iref.body, iref.body + 4))];
  for (const reference of boxesIn(bytes, iref.body + 4, iref.end) ?? []) {
    const read = new Reader(bytes, reference.body, reference.end);
    const from = read.uint(idSize);
    const targets: number[] = [];
    for (let n = read.uint(2); n > 0; n--) targets.push(read.uint(idSize));
    const left = targets.filter((id) => !drop.has(id));
    if (drop.has(from) || left.length === 0) continue;
    const body = Buffer.alloc(idSize * (left.length + 1) + 2);
    body.writeUIntBE(from, 0, idSize);
    body.writeUInt16BE(left.length, idSize);
    left.forEach((id, n) => body.writeUIntBE(id, idSize + 2 + n * idSize, idSize));
    kept.push(box(reference.type, body));
  }
  return box('iref', Buffer.concat(kept));
}

/** `ipma` without the entries of `drop` (metadata items seldom have any). */
function ipmaWithout(bytes: Buffer, ipma: Box, drop: Set<number>): Buffer {
  const read = new Reader(bytes, ipma.body, ipma.end);
  const version = read.uint(1);
  const flags = read.uint(3);
  const kept: Buffer[] = [];
  for (let n = read.uint(4); n > 0; n--) {
    const start = read.at;
    const id = read.uint(version < 1 ? 2 : 4);
    for (let a = read.uint(1); a > 0; a--) read.uint(flags & 1 ? 2 : 1);
    if (!drop.has(id)) kept.push(bytes.subarray(start, read.at));
  }
  const head = Buffer.from(bytes.subarray(ipma.body, ipma.body + 8));
  head.writeUInt32BE(kept.length, 4);
  return box('ipma', Buffer.concat([head, ...kept]));
}

/**
 * The HEIC without its metadata items; the same buffer when it has none; null when its boxes
 * are not the ones expected (no top-level `meta`, a box overrunning its parent, a metadata item
 * whose data cannot be found).
 */
export function strippedHeif(bytes: Buffer): Buffer | null {
  try {
    return stripped(bytes);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

function stripped(bytes: Buffer): Buffer | null {
  const top = boxesIn(bytes, 0, bytes.length);
  const meta = top?.find((b) => b.type === 'meta');
  if (!meta) return null;
  const children = boxesIn(bytes, meta.body + 4, meta.end);
  if (!children) return null;
  const child = (type: string) => children.find((b) => b.type === type);
  const iinf = child('iinf');
  const iloc = child('iloc');
  if (!iinf || !iloc) return null;
  const drop = metadataItems(bytes, iinf);
  if (drop.size === 0) return bytes;

  const out = Buffer.from(bytes);
  const { head, countSize, items } = locations(bytes, iloc);
  const idat = child('idat');
  for (const item of items.filter((location) => drop.has(location.id))) {
    if (item.dataReference !== 0 || item.method === 2) continue; // no bytes of this file
    const [from, to] = item.method === 0 ? [0, bytes.length] : [idat?.body ?? 0, idat?.end ?? 0];
    for (const extent of item.extents) {
      const start = from + extent.offset;
      const end = start + extent.length;
      // A length of 0 means "all the data" (never written for metadata): not followed.
      if (extent.length === 0 || end > to) return null;
      // In the file, outside `meta`; or inside `idat`, which is copied from `out` below.
      if (item.method === 0 && start < meta.end && end > meta.start) return null;
      out.fill(0, start, end);
    }
  }
  const keptItems = items.filter((location) => !drop.has(location.id));
  const ilocHead = Buffer.from(head);
  ilocHead.writeUIntBE(keptItems.length, ilocHead.length - countSize, countSize);
  const rebuilt: Record<string, Buffer> = {
    iinf: iinfWithout(bytes, iinf, drop),
    iloc: box(
      'iloc',
      Buffer.concat([
        ilocHead,
        ...keptItems.map((location) => bytes.subarray(location.start, location.end)),
      ]),
    ),
  };
  const iref = child('iref');
  if (iref) rebuilt.iref = irefWithout(bytes, iref, drop);
  const iprp = child('iprp');
  if (iprp) {
    const parts = boxesIn(bytes, iprp.body, iprp.end);
    if (!parts) return null;
    rebuilt.iprp = box(
      'iprp',
      Buffer.concat(
        parts.map((part) =>
          part.type === 'ipma'
            ? ipmaWithout(bytes, part, drop)
            : bytes.subarray(part.start, part.end),
        ),
      ),
    );
  }
  const body = Buffer.concat([
    out.subarray(meta.body, meta.body + 4),
    ...children.map((b) => rebuilt[b.type] ?? out.subarray(b.start, b.end)),
  ]);
  const newMeta = box('meta', body);
  const removed = meta.end - meta.start - newMeta.length;
  if (removed < 8) return null; // cannot happen: a metadata item's `infe` alone is longer
  // The space given up, as a `free` box: everything after `meta` stays where `iloc` says.
  return Buffer.concat([
    out.subarray(0, meta.start),
    newMeta,
    box('free', Buffer.alloc(removed - 8)),
    out.subarray(meta.end),
  ]);
}
