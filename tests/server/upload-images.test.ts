/**
 * Issue 20, photos of IDs: HEIC (what iPhones save) accepted and kept as sent, with a JPEG
 * rendition staff preview in the console; one rule for ID images on every path (the schema's:
 * JPEG, PNG, WebP, HEIC), so AVIF, GIF and TIFF are refused on registration, registration/user,
 * user/settings and invitation acceptance alike.
 */
import fs from 'node:fs';
import decodeHeic from 'heic-decode';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deref } from '../../src/shared/forms/walk/schemaWalk';
import { testForm } from '../forms';
import { signedInStaff } from './adminHelpers';
import { freshClient, lastLink, postForm, signedIn, uniqueEmail, type Part } from './authHelpers';
import { heicWithMetadata } from './heicWithMetadata';
import { IndividualRegistration, storedFiles } from './registrationHelpers';
import { createTestApp, type TestApp, type TestClient } from './testApp';

const API = '/exchange/api/web';
const C = '/clearing/admin';
// libheif's encoder from id-front.png (see tests/unit/forms/fileType.test.ts).
const heic = fs.readFileSync('tests/fixtures/files/id-front.heic');
const avif = fs.readFileSync('tests/fixtures/files/id-front.avif');
const personPhotoPrompt = () => {
  const person = testForm('person').schema;
  return deref(person.properties!.photoId!, person).title!;
};
const REFUSED_MESSAGE = (label: string) =>
  `The file for ${label} must be an image (JPEG, PNG, WebP or HEIC).`;

describe('ID photos: HEIC accepted and previewable, one rule on every path', () => {
  let t: TestApp;
  let registration: IndividualRegistration;
  let refused: Record<string, Buffer>;

  beforeAll(async () => {
    t = await createTestApp();
    registration = await IndividualRegistration.create();
    const picture = sharp({ create: { width: 40, height: 30, channels: 3, background: '#357' } });
    refused = {
      AVIF: avif,
      GIF: await picture.clone().gif().toBuffer(),
      TIFF: await picture.clone().tiff().toBuffer(),
    };
  });
  afterAll(async () => t.close());

  const heicBlob = () => new Blob([new Uint8Array(heic)], { type: 'image/heic' });

  it('stores a HEIC photo ID as sent, and staff preview it as a JPEG', async () => {
    const { client, email, id } = await signedIn(t);
    const response = await registration.submit(client, email, {
      '/photoId': heicBlob(),
      '/photoIdBack': heicBlob(),
    });
    expect(response.statusCode, response.body).toBe(201);
    const stored = await t.pool.query<{
      id: string;
      bytes: Buffer;
      content_type: string;
      preview: Buffer | null;
    }>(
      `select d.id, stored_file_bytes(f.storage_name) as bytes, f.content_type, f.preview from registration_documents d
         join registrations r on r.id = d.registration_id
         join stored_files f on f.storage_name = d.storage_name
        where r.user_id = $1 and d.part = 'photoId'`,
      [id],
    );
    const photo = stored.rows[0]!;
    expect(photo.content_type).toBe('image/heic');
    expect(Buffer.compare(photo.bytes, heic)).toBe(0); // the original, untouched
    const rendition = await sharp(photo.preview!).metadata();
    expect([rendition.format, rendition.width, rendition.height]).toEqual(['jpeg', 420, 260]);

    const staff = await signedInStaff(t);
    const registrationId = (response.json() as { registrationId: string }).registrationId;
    const page = (await staff.client.get(`${C}/registrations/${registrationId}`)).body;
    expect(page).toContain(`<img src="${C}/documents/${photo.id}?inline=1"`);
    const preview = await staff.client.get(`${C}/documents/${photo.id}?inline=1`);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    expect(preview.headers['content-disposition']).toBe('inline');
    expect(Buffer.compare(preview.rawPayload, photo.preview!)).toBe(0);
    const download = await staff.client.get(`${C}/documents/${photo.id}`);
    expect(download.headers['content-type']).toBe('image/heic');
    expect(download.headers['content-disposition']).toMatch(/^attachment/);
    expect(Buffer.compare(download.rawPayload, heic)).toBe(0);
  });

  it('stores ID images without bytes after their end marker; staff preview never serves them', async () => {
    // Issue 27 §5: a `<script>` after a PNG's IEND (and the same after a JPEG's EOI, a WebP's
    // RIFF size, a HEIC's last box) is cut off; the picture's own bytes are kept exactly.
    const picture = sharp({ create: { width: 40, height: 30, channels: 3, background: '#357' } });
    const trailer = Buffer.from('<script>alert(document.cookie)</script>');
    const images: Record<string, Buffer> = {
      'image/png': await picture.clone().png().toBuffer(),
      'image/jpeg': await picture.clone().jpeg().toBuffer(),
      'image/webp': await picture.clone().webp().toBuffer(),
      'image/heic': heic,
    };
    const staff = await signedInStaff(t);
    for (const [type, image] of Object.entries(images)) {
      const { client, email, id } = await signedIn(t);
      const response = await registration.submit(client, email, {
        '/photoId': new Blob([new Uint8Array(Buffer.concat([image, trailer]))]),
      });
      expect(response.statusCode, `${type}: ${response.body}`).toBe(201);
      const stored = await t.pool.query<{
        id: string;
        bytes: Buffer;
        content_type: string;
        size: string;
      }>(
        `select d.id, stored_file_bytes(f.storage_name) as bytes, f.content_type, f.size::text as size
           from registration_documents d
           join registrations r on r.id = d.registration_id
           join stored_files f on f.storage_name = d.storage_name
          where r.user_id = $1 and d.part = 'photoId'`,
        [id],
      );
      const photo = stored.rows[0]!;
      expect(photo.content_type).toBe(type);
      expect(Buffer.compare(photo.bytes, image), type).toBe(0);
      expect(Number(photo.size), type).toBe(image.length);
      for (const url of [`${C}/documents/${photo.id}?inline=1`, `${C}/documents/${photo.id}`]) {
        const served = await staff.client.get(url);
        expect(served.statusCode, url).toBe(200);
        expect(served.rawPayload.includes(trailer), `${type} ${url}`).toBe(false);
      }
    }
  });

  it('stores JPEG, WebP and PNG photo IDs without EXIF, GPS, XMP or PNG text, turned upright; a HEIC rendition carries none', async () => {
    // Issue 39 §5: a phone's photo of an ID says where it was taken (GPS), with which camera
    // (maker notes) and when; a PNG's text chunk can hold a `<script>`. None of it is stored.
    const xmp =
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.5N"/></rdf:RDF></x:xmpmeta>';
    const picture = sharp({ create: { width: 40, height: 30, channels: 3, background: '#357' } });
    const tagged = (image: ReturnType<typeof sharp>) =>
      image
        .withExif({
          IFD0: { Make: 'Canon', Model: 'SecretCam' },
          IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 30/1' },
        })
        .withXmp(xmp);
    const turned = (image: ReturnType<typeof sharp>) =>
      tagged(image).withMetadata({ orientation: 6 });
    const cases: [string, string, Buffer, boolean][] = [
      ['JPEG upright', 'image/jpeg', await tagged(picture.clone().jpeg()).toBuffer(), false],
      ['JPEG turned', 'image/jpeg', await turned(picture.clone().jpeg()).toBuffer(), true],
      ['WebP upright', 'image/webp', await tagged(picture.clone().webp()).toBuffer(), false],
      ['WebP turned', 'image/webp', await turned(picture.clone().webp()).toBuffer(), true],
      ['PNG with text', 'image/png', withPngText(await picture.clone().png().toBuffer()), false],
      [
        'PNG turned',
        'image/png',
        withPngText(await turned(picture.clone().png()).toBuffer()),
        true,
      ],
    ];
    for (const [name, type, sent, isTurned] of cases) {
      const before = await sharp(sent).metadata();
      expect(!!before.exif || sent.includes('<script>'), name).toBe(true);
      const { client, email, id } = await signedIn(t);
      const response = await registration.submit(client, email, {
        '/photoId': new Blob([new Uint8Array(sent)]),
      });
      expect(response.statusCode, `${name}: ${response.body}`).toBe(201);
      const stored = await t.pool.query<{ bytes: Buffer; content_type: string; size: string }>(
        `select stored_file_bytes(f.storage_name) as bytes, f.content_type, f.size::text as size
           from registration_documents d
           join registrations r on r.id = d.registration_id
           join stored_files f on f.storage_name = d.storage_name
          where r.user_id = $1 and d.part = 'photoId'`,
        [id],
      );
      const { bytes, content_type, size } = stored.rows[0]!;
      expect(content_type, name).toBe(type);
      expect(Number(size), name).toBe(bytes.length);
      for (const trace of ['Exif\0', 'SecretCam', 'Canon', 'xmpmeta', '<script>', 'tEXt', 'iTXt']) {
        expect(bytes.includes(trace), `${name}: ${trace}`).toBe(false);
      }
      const after = await sharp(bytes).metadata();
      expect([after.exif, after.xmp, after.orientation ?? 1], name).toEqual([
        undefined,
        undefined,
        1,
      ]);
      // Turned upright: the 40 x 30 picture tagged "rotate 90°" is stored 30 x 40.
      expect([after.width, after.height], name).toEqual(isTurned ? [30, 40] : [40, 30]);
      await sharp(bytes, { failOn: 'error' }).stats();
    }
    // A HEIC's JPEG rendition staff preview is made from its pixels alone (its original: below).
    const { client, email, id } = await signedIn(t);
    const response = await registration.submit(client, email, { '/photoId': heicBlob() });
    expect(response.statusCode, response.body).toBe(201);
    const rendition = await t.pool.query<{ preview: Buffer }>(
      `select f.preview from registration_documents d
         join registrations r on r.id = d.registration_id
         join stored_files f on f.storage_name = d.storage_name
        where r.user_id = $1 and d.part = 'photoId'`,
      [id],
    );
    const preview = await sharp(rendition.rows[0]!.preview).metadata();
    expect([preview.format, preview.exif, preview.xmp]).toEqual(['jpeg', undefined, undefined]);
  });

  it('stores a HEIC photo ID without its EXIF (GPS) and XMP items; its picture and orientation kept byte for byte', async () => {
    // Issue 39 §5: the original staff download is the phone's HEIC, which carried where it was
    // taken. Its metadata items are taken out; the HEVC pictures and the irot turning them stay.
    const xmp =
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.5N"/></rdf:RDF></x:xmpmeta>';
    const tagged = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#357' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'Canon', Model: 'SecretCam' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 30/1' },
      })
      .toBuffer();
    const exif = (await sharp(tagged).metadata()).exif!;
    const staff = await signedInStaff(t);
    for (const turned of [false, true]) {
      const name = turned ? 'turned' : 'upright';
      const sent = heicWithMetadata(heic, exif, xmp, turned);
      const before = await sharp(sent).metadata();
      expect([!!before.exif, !!before.xmp], name).toEqual([true, true]);
      const { client, email, id } = await signedIn(t);
      const response = await registration.submit(client, email, {
        '/photoId': new Blob([new Uint8Array(sent)]),
      });
      expect(response.statusCode, `${name}: ${response.body}`).toBe(201);
      const stored = await t.pool.query<{
        id: string;
        bytes: Buffer;
        content_type: string;
        size: string;
        preview: Buffer;
      }>(
        `select d.id, stored_file_bytes(f.storage_name) as bytes, f.content_type,
                f.size::text as size, f.preview
           from registration_documents d
           join registrations r on r.id = d.registration_id
           join stored_files f on f.storage_name = d.storage_name
          where r.user_id = $1 and d.part = 'photoId'`,
        [id],
      );
      const photo = stored.rows[0]!;
      expect(photo.content_type, name).toBe('image/heic');
      expect(Number(photo.size), name).toBe(photo.bytes.length);
      const download = await staff.client.get(`${C}/documents/${photo.id}`);
      expect(Buffer.compare(download.rawPayload, photo.bytes), name).toBe(0);
      for (const trace of ['Exif\0', 'SecretCam', 'Canon', 'xmpmeta', 'GPSLatitude', 'rdf+xml']) {
        expect(sent.includes(trace), `${name} sent: ${trace}`).toBe(true);
        expect(photo.bytes.includes(trace), `${name}: ${trace}`).toBe(false);
      }
      const after = await sharp(photo.bytes).metadata();
      expect([after.format, after.exif, after.xmp], name).toEqual(['heif', undefined, undefined]);
      // The pictures decode to the very pixels sent, turned as sent (the 420 x 260 ID card's irot).
      const [sentPixels, storedPixels] = await Promise.all(
        [sent, photo.bytes].map((buffer) => decodeHeic({ buffer })),
      );
      const size = turned ? [260, 420] : [420, 260];
      expect([storedPixels!.width, storedPixels!.height], name).toEqual(size);
      expect(Buffer.compare(Buffer.from(storedPixels!.data), Buffer.from(sentPixels!.data))).toBe(
        0,
      );
      const preview = await sharp(photo.preview).metadata();
      expect([preview.width, preview.height, preview.exif], name).toEqual([...size, undefined]);
    }
  });

  it('refuses AVIF, GIF and TIFF photo IDs on the registration form, storing nothing', async () => {
    const { client, email } = await signedIn(t);
    const label = testForm('individual').schema.properties!.photoId!.title!;
    for (const [kind, bytes] of Object.entries(refused)) {
      const before = await storedFiles(t);
      const response = await registration.submit(client, email, {
        '/photoId': new Blob([new Uint8Array(bytes)]),
      });
      expect(response.statusCode, kind).toBe(400);
      expect(response.json().errorMessage, kind).toBe(REFUSED_MESSAGE(label));
      expect(await storedFiles(t), kind).toEqual(before);
    }
  });

  const file = (name: string, data: Buffer): Part => ({
    name,
    filename: 'photo',
    contentType: 'application/octet-stream',
    data,
  });

  /** The other paths that take a photo ID: each sends `photo` with valid details. */
  const paths: Record<string, (photo: Buffer) => ReturnType<typeof postForm>> = {
    'registration/user': async (photo) => {
      const { client } = await signedIn(t);
      return postForm(client, `${API}/registration/user`, [
        { name: 'firstName', value: 'Grace' },
        { name: 'lastName', value: 'Hopper' },
        { name: 'phoneNumber', value: '+12125550142' },
        file('photoId', photo),
      ]);
    },
    'user/settings add_kyc': async (photo) => {
      const { client } = await signedIn(t);
      return postForm(client, `${API}/user/settings`, [
        { name: 'tag', value: 'add_kyc' },
        { name: 'first_name', value: 'Ada' },
        { name: 'last_name', value: 'Byron' },
        { name: 'phone_number', value: '+12125550142' },
        file('photo_id', photo),
      ]);
    },
    'invitation acceptance': async (photo) => {
      const admin = await administrator();
      const email = uniqueEmail('invitee');
      const invite = await postForm(admin.client, `${API}/user/settings`, [
        { name: 'tag', value: 'invite_user' },
        { name: 'email', value: email },
        { name: 'role', value: 'Viewer' },
      ]);
      expect(invite.statusCode).toBe(200);
      return postForm(freshClient(t.app), `${API}/auth/invite/accept`, [
        {
          name: 'access_token',
          value: lastLink(t, email, 'access_token').searchParams.get('access_token')!,
        },
        { name: 'organization_id', value: admin.organizationId },
        { name: 'email', value: email },
        { name: 'password_text', value: 'Invited-Pass-5' },
        { name: 'first_name', value: 'Ada' },
        { name: 'last_name', value: 'Byron' },
        { name: 'phone_number', value: '+12125550142' },
        { name: 'role', value: 'Viewer' },
        file('photo_id', photo),
      ]);
    },
  };

  /** An Administrator of an organisation staff have admitted (only those may invite). */
  async function administrator(): Promise<{ client: TestClient; organizationId: string }> {
    const admin = await signedIn(t);
    const org = await t.pool.query<{ id: string }>(
      `insert into organizations (name, clearing_org_id, kind, participant_status)
       values ('Acme Hedging', $1, 'business', 'approved') returning id`,
      [`NCF-${Math.floor(Math.random() * 1e9)}`],
    );
    await t.pool.query(
      `update users set organization_id = $1, roles = '{Administrator}' where id = $2`,
      [org.rows[0]!.id, admin.id],
    );
    return { client: admin.client, organizationId: org.rows[0]!.id };
  }

  it.each(Object.keys(paths))('%s: HEIC accepted, AVIF, GIF and TIFF refused', async (path) => {
    const send = paths[path]!;
    const accepted = await send(heic);
    expect(accepted.statusCode, JSON.stringify(accepted.json())).toBe(200);
    for (const [kind, bytes] of Object.entries(refused)) {
      const response = await send(bytes);
      expect(response.statusCode, kind).toBe(400);
      // These paths ask the person form's photo ID, the business wizard's: an image or a PDF
      // (issue 16 §6), named by its prompt as the registration names it.
      expect(response.json().errorMessage, kind).toBe(
        `The file for ${personPhotoPrompt()} must be an image or a PDF.`,
      );
    }
  });
});

/** CRC-32 as PNG chunks carry it (ISO 3309). */
function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A PNG with a tEXt and an iTXt chunk holding a `<script>`, after its IHDR. */
function withPngText(png: Buffer): Buffer {
  const chunk = (type: string, data: string) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), Buffer.from(data, 'latin1')]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length - 4);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const afterHeader = 8 + 12 + png.readUInt32BE(8);
  return Buffer.concat([
    png.subarray(0, afterHeader),
    chunk('tEXt', 'Comment\0<script>alert(document.cookie)</script>'),
    chunk('iTXt', 'XML:com.adobe.xmp\0\0\0\0\0<script>alert(1)</script>'),
    png.subarray(afterHeader),
  ]);
}
