/**
 * The server's pages (the staff console, the signature evidence, the sample pages) are React
 * components rendered to static markup, so escaping is React's job (issue 36 §4). That holds
 * only while nothing hands React markup of its own: `dangerouslySetInnerHTML` anywhere in
 * src/server fails here, naming the file and line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../../..');
const RAW_HTML = /dangerouslySetInnerHTML/;

/** `file:line: text` for each line of `text` that hands React raw markup. */
function rawHtmlLines(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      RAW_HTML.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
    );
}

describe('markup the server builds by hand', () => {
  it('finds no dangerouslySetInnerHTML in src/server', () => {
    const files = readdirSync(path.join(repo, 'src/server'), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.tsx?$/.test(name))
      .map((name) => path.join('src/server', name));
    expect(files.length).toBeGreaterThan(5);
    const found = files.flatMap((file) =>
      rawHtmlLines(file, readFileSync(path.join(repo, file), 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('names a planted one', () => {
    const planted = '      <td dangerouslySetInnerHTML={{ __html: name }} />';
    expect(
      rawHtmlLines('src/server/admin/console/ListPage.tsx', `<tr>\n${planted}\n</tr>`),
    ).toEqual([`src/server/admin/console/ListPage.tsx:2: ${planted.trim()}`]);
  });
});
