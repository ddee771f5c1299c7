import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileTypeOf, sniffFileType, UNKNOWN_FILE_TYPE } from '../../../src/web/forms/fileType';

// id-front.heic and id-front.avif: tests/fixtures/files/id-front.png through libheif's encoder
// (`heif-enc -q 50 -o id-front.heic id-front.png`, `heif-enc -A …` for AVIF).
const fixture = (name: string) => new Uint8Array(fs.readFileSync(`tests/fixtures/files/${name}`));

describe('fileTypeOf: what a file is by its first bytes', () => {
  it('names the types the forms take', async () => {
    expect(fileTypeOf(fixture('id-front.png'))).toBe('image/png');
    expect(fileTypeOf(fixture('w2-sample.pdf'))).toBe('application/pdf');
    expect(await sniffFileType(new Blob([fixture('id-front.heic')]))).toBe('image/heic');
  });

  it('tells HEIC (HEVC) from AVIF (AV1) by the brands, including a mif1 file listing heic', () => {
    expect(fileTypeOf(fixture('id-front.avif'))).toBe('image/avif');
    const ftyp = (brands: string[]) => {
      const bytes = new Uint8Array(8 + brands.length * 4 + 4);
      new DataView(bytes.buffer).setUint32(0, bytes.length);
      const text = ['ftyp', brands[0]!, '\0\0\0\0', ...brands.slice(1)].join('');
      for (let i = 0; i < text.length; i++) bytes[4 + i] = text.charCodeAt(i);
      return bytes;
    };
    expect(fileTypeOf(ftyp(['mif1', 'mif1', 'heic']))).toBe('image/heic');
    expect(fileTypeOf(ftyp(['mif1', 'mif1', 'miaf']))).toBe(UNKNOWN_FILE_TYPE);
  });

  it('calls an empty file unknown (the schema then says only that it is empty)', () => {
    expect(fileTypeOf(new Uint8Array(0))).toBe(UNKNOWN_FILE_TYPE);
  });
});
