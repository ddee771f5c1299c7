/**
 * The PDF judge's own bounds and verdicts, on pdf.js's parser in this thread (the route tests in
 * upload-pdf-corpus.test.ts run it in the inspection threads): the walk stops at its object
 * limit, and each hostile construct is refused for what it is, not by accident.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectPdf } from '../../src/server/storage/inspectionThreads';
import { MAX_PDF_OBJECTS, pdfActiveContent } from '../../src/server/storage/pdfActions';
import { loadPdfEngine, openPdf } from '../../src/server/storage/pdfEngine';
import { hostilePdfs, legitimatePdfs } from '../fixtures/pdf/corpus';
import { onePage, rawPdf } from '../fixtures/pdf/rawPdf';

async function judge(pdf: Buffer, maxObjects?: number) {
  const engine = await loadPdfEngine();
  const opened = await openPdf(engine, new Uint8Array(pdf));
  if ('unreadable' in opened) throw new Error(`unreadable: ${opened.unreadable}`);
  return pdfActiveContent(engine, opened.xref, maxObjects);
}

describe('pdfActiveContent', () => {
  it('stops walking at its object limit and refuses the document as unreadable', async () => {
    // A chain of 3,000 arrays hanging from the catalog.
    const chain = Array.from({ length: 3000 }, (_, i) => ({
      num: 10 + i,
      body: i < 2999 ? `[${11 + i} 0 R]` : '[]',
    }));
    const pdf = rawPdf({ objects: [...onePage('/Chain 10 0 R'), ...chain] });
    expect(await judge(pdf, 1000)).toEqual({ unreadable: 'too many objects' });
    expect(await judge(pdf)).toEqual({ active: null });
    expect(MAX_PDF_OBJECTS).toBeGreaterThan(3000 + 10);
  });

  it('names what it found in each hostile document, and nothing in the legitimate ones', async () => {
    const found: Record<string, unknown> = {};
    for (const [name, pdf] of Object.entries(hostilePdfs())) found[name] = await judge(pdf);
    expect(found).toMatchObject({
      'lowercase-hex name /#4aavaScript': { active: 'a JavaScript action (/OpenAction)' },
      'lowercase-hex name /Lau#6ech': { active: 'a Launch action (/OpenAction)' },
      'action type as an indirect object (/S 6 0 R is /Launch)': {
        active: 'a Launch action (/OpenAction)',
      },
      'shadowed duplicate catalog (the xref names the hostile one)': {
        active: 'a JavaScript action (/OpenAction)',
      },
      'action object inside a % comment line the xref points into': {
        active: 'a Launch action (/OpenAction)',
      },
      'JavaScript in an object stream with no /Type': {
        active: 'a JavaScript action (/OpenAction)',
      },
      'GoToR to an SMB share on open': { active: 'a GoToR action (/OpenAction)' },
      'URI open action with a javascript: address': {
        active: 'a web address opened by itself (/OpenAction)',
      },
      'encrypted (AES-256, empty user password) with a javascript: link': {
        active: 'a link that is not a web address (/A)',
      },
    });
    for (const [name, verdict] of Object.entries(found)) {
      expect((verdict as { active?: string }).active, name).toBeTruthy();
    }
    for (const [name, pdf] of Object.entries(legitimatePdfs())) {
      expect(await judge(pdf), name).toEqual({ active: null });
    }
  });
});

describe('inspection threads', () => {
  it('answers every check of a burst, in its own verdict, two threads taking turns', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-inspection-'));
    try {
      const hostile = Object.values(hostilePdfs()).slice(0, 6);
      const legitimate = Object.values(legitimatePdfs()).slice(0, 6);
      const write = (pdf: Buffer, i: number, kind: string) => {
        const file = path.join(dir, `${kind}-${i}.pdf`);
        fs.writeFileSync(file, pdf);
        return file;
      };
      const checks = [
        ...hostile.map((pdf, i) => inspectPdf(write(pdf, i, 'hostile'))),
        ...legitimate.map((pdf, i) => inspectPdf(write(pdf, i, 'legitimate'))),
        inspectPdf(path.join(dir, 'missing.pdf')),
      ];
      const verdicts = (await Promise.all(checks)).map((result) => result.verdict);
      expect(verdicts).toEqual([
        ...hostile.map(() => 'active'),
        ...legitimate.map(() => 'passive'),
        'unreadable',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
