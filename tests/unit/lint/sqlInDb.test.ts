/**
 * SQL lives in src/server/db/ (issue 36 §4): a query call, or a string that starts like a
 * statement, anywhere else in src/server or src/cli fails here, naming the file and line. ESLint's
 * `import-x/no-restricted-paths` keeps db/ from importing upward; this keeps SQL from leaking up.
 * A plain text scan: fast, and a false alarm is easily reworded.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../../..');
const DB = path.join('src', 'server', 'db') + path.sep;

/** A driver call (`db.query(`, `client.query<Row>(`), or a quote opening a statement. */
const SQL = [
  /\.query\s*(<[^>]*>)?\s*\(/,
  /[`'"]\s*(select\s|insert\s+into|update\s+\w+\s+set|delete\s+from|with\s+\w+\s+as\s*\()/i,
  /[`'"](begin|commit|rollback)[`'"]|[`'"]listen\s+[\w$]/i,
];

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(repo, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => path.join(folder, name));
}

/** `file:line: text` for each line of `text` that looks like SQL (comments skipped). */
function sqlLines(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    // `request.query` is Fastify's query string, not SQL.
    const code = line
      .replace(/\/\/.*$/, '')
      .replace(/^\s*\*.*$/, '')
      .replace(/\brequest\.query\b/g, '');
    if (SQL.some((pattern) => pattern.test(code)))
      found.push(`${file}:${index + 1}: ${line.trim()}`);
  });
  return found;
}

describe('SQL outside src/server/db/', () => {
  it('finds none in src/server or src/cli', () => {
    const files = [...sourceFiles('src/server'), ...sourceFiles('src/cli')].filter(
      (file) => !file.startsWith(DB),
    );
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      sqlLines(file, readFileSync(path.join(repo, file), 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('names a planted query call and statement string, not comments or query strings', () => {
    const planted = [
      'const rows = await pool.query<{ id: string }>(',
      "  'select id from users where email = $1',",
      '  // a comment may say select * from anything',
      "const status = request.query.status ?? 'pending';",
      'await client.query(`update users set email = $2 where id = $1`, [id, email]);',
    ].join('\n');
    expect(sqlLines('planted.ts', planted).map((line) => line.split(':')[1])).toEqual([
      '1',
      '2',
      '5',
    ]);
  });
});
