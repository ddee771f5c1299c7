/**
 * A HEIC photo as a phone saves one, built from tests/fixtures/files/id-front.heic (two items:
 * the picture and its alpha, both HEVC): an `Exif` item (EXIF with GPS, as iPhones write it:
 * a 4-byte offset, then `Exif\0\0` and the TIFF data) and an XMP `mime` item, each in `mdat`
 * and described in `iinf`, `iloc` and `iref` (`cdsc`), and optionally an `irot` turning both
 * pictures a quarter turn. Written here box by box, apart from the server's own reader
 * (src/server/storage/heifMetadata.ts), for the fixture's layout only (iloc version 0, 4-byte
 * offsets; iinf, iref and ipma version 0).
 */
import assert from 'node:assert';

interface Box {
  type: string;
  start: number;
  body: number;
  end: number;
}

function boxes(bytes: Buffer, start: number, end: number): Box[] {
  const found: Box[] = [];
  for (let at = start; at < end;) {
    const size = bytes.readUInt32BE(at);
    assert(size >= 8, 'the fixture uses 32-bit box sizes');
    found.push({
      type: bytes.toString('latin1', at + 4, at + 8),
      start: at,
      body: at + 8,
      end: at + size,
    });
    at += size;
  }
  return found;
}

function box(type: string, ...body: Buffer[]): Buffer {
  const content = Buffer.concat(body);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + content.length);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, content]);
}

const u8 = (n: number) => Buffer.from([n]);
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const text = (s: string) => Buffer.from(`${s}\0`, 'latin1');
const FULL_V0 = u32(0);

/** `infe` version 2 of item `id`. */
const infe = (id: number, type: string, ...rest: Buffer[]) =>
  box(
    'infe',
    u8(2),
    Buffer.alloc(3),
    u16(id),
    u16(0),
    Buffer.from(type, 'latin1'),
    text(''),
    ...rest,
  );

/**
 * `heic` with `exif` (sharp's `metadata().exif`: `Exif\0\0` then TIFF) and `xmp` as metadata items,
 * and, with `turned`, an `irot` of a quarter turn on both pictures.
 */
export function heicWithMetadata(heic: Buffer, exif: Buffer, xmp: string, turned: boolean): Buffer {
  const top = boxes(heic, 0, heic.length);
  const [ftyp, meta, mdat] = top;
  assert.deepEqual(
    top.map((b) => b.type),
    ['ftyp', 'meta', 'mdat'],
  );
  const children = boxes(heic, meta!.body + 4, meta!.end);
  const child = (type: string) => children.find((b) => b.type === type)!;
  const of = (b: Box) => heic.subarray(b.start, b.end);

  // iinf (version 0): the two pictures, then the metadata items 3 (Exif) and 4 (XMP).
  const iinf = child('iinf');
  assert.equal(heic[iinf.body], 0);
  const newIinf = box(
    'iinf',
    FULL_V0,
    u16(heic.readUInt16BE(iinf.body + 4) + 2),
    heic.subarray(iinf.body + 6, iinf.end),
    infe(3, 'Exif'),
    infe(4, 'mime', text('application/rdf+xml')),
  );

  // iref (version 0): each metadata item describes (cdsc) the primary picture, item 1.
  const iref = child('iref');
  const newIref = box(
    'iref',
    heic.subarray(iref.body, iref.end),
    box('cdsc', u16(3), u16(1), u16(1)),
    box('cdsc', u16(4), u16(1), u16(1)),
  );

  // iprp: an irot (a quarter turn anticlockwise) associated with both pictures, essential.
  const iprp = child('iprp');
  const [ipco, ipma] = boxes(heic, iprp.body, iprp.end);
  assert.equal(ipco!.type, 'ipco');
  assert.equal(ipma!.type, 'ipma');
  let newIprp = of(iprp);
  if (turned) {
    const properties = boxes(heic, ipco!.body, ipco!.end).length;
    const irotIndex = properties + 1;
    assert.equal(heic.readUInt32BE(ipma!.body), 0, 'ipma version 0, 1-byte associations');
    const entries: Buffer[] = [];
    let at = ipma!.body + 8;
    for (let n = heic.readUInt32BE(ipma!.body + 4); n > 0; n--) {
      const id = heic.readUInt16BE(at);
      const count = heic[at + 2]!;
      const associations = heic.subarray(at + 3, at + 3 + count);
      entries.push(Buffer.concat([u16(id), u8(count + 1), associations, u8(0x80 | irotIndex)]));
      at += 3 + count;
    }
    newIprp = box(
      'iprp',
      box('ipco', heic.subarray(ipco!.body, ipco!.end), box('irot', u8(1))),
      box('ipma', FULL_V0, u32(entries.length), ...entries),
    );
  }

  // iloc (version 0, offset, length and base offset of 4 bytes): every offset in the file.
  const iloc = child('iloc');
  assert.equal(heic.readUInt32BE(iloc.body), 0);
  assert.equal(heic.readUInt16BE(iloc.body + 4), 0x4440);
  const count = heic.readUInt16BE(iloc.body + 6);
  const pictures: { id: number; base: number; extents: [number, number][] }[] = [];
  let at = iloc.body + 8;
  for (let n = 0; n < count; n++) {
    const id = heic.readUInt16BE(at);
    const base = heic.readUInt32BE(at + 4);
    const extents: [number, number][] = [];
    at += 10;
    for (let e = heic.readUInt16BE(at - 2); e > 0; e--, at += 8) {
      extents.push([heic.readUInt32BE(at), heic.readUInt32BE(at + 4)]);
    }
    pictures.push({ id, base, extents });
  }
  const exifItem = Buffer.concat([u32(6), exif]);
  const xmpItem = Buffer.from(xmp, 'utf8');
  const ilocOf = (shift: number, exifAt: number, xmpAt: number) =>
    box(
      'iloc',
      FULL_V0,
      u16(0x4440),
      u16(count + 2),
      ...pictures.map((p) =>
        Buffer.concat([
          u16(p.id),
          u16(0),
          u32(p.base + shift),
          u16(p.extents.length),
          ...p.extents.map(([offset, length]) => Buffer.concat([u32(offset), u32(length)])),
        ]),
      ),
      Buffer.concat([u16(3), u16(0), u32(exifAt), u16(1), u32(0), u32(exifItem.length)]),
      Buffer.concat([u16(4), u16(0), u32(xmpAt), u16(1), u32(0), u32(xmpItem.length)]),
    );
  const metaOf = (newIloc: Buffer) =>
    box(
      'meta',
      heic.subarray(meta!.body, meta!.body + 4),
      ...children.map((b) =>
        b.type === 'iinf'
          ? newIinf
          : b.type === 'iref'
            ? newIref
            : b.type === 'iprp'
              ? newIprp
              : b.type === 'iloc'
                ? newIloc
                : of(b),
      ),
    );
  // The meta box's size does not depend on the offsets it holds: measured once, then written.
  const shift = metaOf(ilocOf(0, 0, 0)).length - (meta!.end - meta!.start);
  const mdatData = heic.subarray(mdat!.body, mdat!.end);
  const exifAt = mdat!.body + shift + mdatData.length;
  const newMeta = metaOf(ilocOf(shift, exifAt, exifAt + exifItem.length));
  return Buffer.concat([of(ftyp!), newMeta, box('mdat', mdatData, exifItem, xmpItem)]);
}
