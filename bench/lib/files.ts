/**
 * The files a user attaches, about 10 MB together: two ~0.9 MB PNG photos of an ID (noise, so
 * they do not compress) and a ~8.3 MB W-2 PDF (one page with a large embedded JPEG, a real PDF
 * that pdf-lib parses). Under the schema's 10 MB per file (schemas/common/file.schema.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

export interface BenchFile {
  /** The answer it goes to ('/photoId'). */
  pointer: string;
  path: string;
  name: string;
  type: string;
  size: number;
}

const noise = (width: number, height: number) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  });

export async function makeBenchFiles(dir: string): Promise<BenchFile[]> {
  const front = await noise(600, 560).png().toBuffer();
  const back = await noise(600, 560).png().toBuffer();
  const scan = await noise(2700, 2700).jpeg({ quality: 100 }).toBuffer();
  const document = await PDFDocument.create();
  const image = await document.embedJpg(scan);
  document.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  const pdf = Buffer.from(await document.save());

  const files: [string, string, string, Buffer][] = [
    ['/photoId', 'bench-id-front.png', 'image/png', front],
    ['/photoIdBack', 'bench-id-back.png', 'image/png', back],
    ['/irsFormW2', 'bench-w2.pdf', 'application/pdf', pdf],
  ];
  return files.map(([pointer, name, type, bytes]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return { pointer, path: file, name, type, size: bytes.length };
  });
}
