/**
 * The README and the guides in docs/ name links, npm scripts, command-line subcommands, files and
 * environment variables: each must still exist, or a newcomer following them meets a dead end.
 * Every failure names the document, the line and what is missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The documents checked: the README, every guide in docs/ and the schemas' README. */
const DOCUMENTS = [
  'README.md',
  'schemas/README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** A document's text with fenced code blocks blanked (line numbers kept), and the blocks apart. */
function splitFences(text: string): { prose: string; code: string } {
  let inFence = false;
  const prose: string[] = [];
  const code: string[] = [];
  for (const line of text.split('\n')) {
    const fence = /^\s*(```|~~~)/.test(line);
    if (fence) inFence = !inFence;
    const isCode = fence || inFence;
    prose.push(isCode ? '' : line);
    code.push(isCode && !fence ? line : '');
  }
  return { prose: prose.join('\n'), code: code.join('\n') };
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of splitFences(read(file)).prose.split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Inline code spans outside fenced blocks (a span may wrap onto the next line). */
function codeSpans(prose: string): { text: string; line: number }[] {
  return [...prose.matchAll(/(?<!`)`([^`]+)`(?!`)/g)].map((match) => ({
    text: match[1]!.replace(/\s*\n\s*/g, ' ').trim(),
    line: lineAt(prose, match.index),
  }));
}

const packageJson = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

/** The subcommands each command-line tool accepts, read from its own source. */
function subcommands(): Record<string, Set<string>> {
  const forms = read('src/cli/forms.ts');
  const admin = read('src/cli/admin.ts');
  const adminTable = /const expected: Record<string, number> = \{([^}]*)\}/.exec(admin)?.[1] ?? '';
  const bench = read('bench/run.ts');
  const chromiumParts =
    /const inChromium\b[\s\S]*?> = \{([\s\S]*?)\n {2}\};/.exec(bench)?.[1] ?? '';
  const result = {
    forms: new Set([...forms.matchAll(/case '([a-z-]+)':/g)].map((match) => match[1]!)),
    admin: new Set([...adminTable.matchAll(/'?([a-z-]+)'?: \d+/g)].map((match) => match[1]!)),
    bench: new Set([
      ...[...bench.matchAll(/ONLY === '([a-z]+)'/g)].map((match) => match[1]!),
      ...[...chromiumParts.matchAll(/^ {4}([a-z]+): \[/gm)].map((match) => match[1]!),
    ]),
  };
  for (const [tool, names] of Object.entries(result)) {
    // Reading a tool's list has gone wrong if it finds nothing: say so rather than pass.
    if (names.size === 0) throw new Error(`found no subcommands of "${tool}" in its source`);
  }
  return result;
}

/** Environment variables the code reads: `process.env.X`, `env.X`, `env['X']`. */
function envReadIn(folders: string[]): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (/\.(ts|tsx|js|mjs|cjs)$/.test(entry.name)) {
        for (const match of read(relative).matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]*)/g)) {
          names.add(match[1]!);
        }
      }
    }
  };
  folders.forEach(walk);
  return names;
}

const PATH_PREFIX = /^(src|tests|schemas|scripts|docs|bench|assets|\.ci)\//;

describe.each(DOCUMENTS)('%s', (file) => {
  const text = read(file);
  const { prose, code } = splitFences(text);
  const spans = codeSpans(prose);

  it('links only to files and headings that exist', () => {
    const missing: string[] = [];
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const where = `${file}:${lineAt(prose, match.index)}`;
      const [targetPath = '', anchor] = target.split('#');
      const resolved = targetPath
        ? path.posix.normalize(path.posix.join(path.posix.dirname(file), targetPath))
        : file;
      if (!fs.existsSync(path.join(root, resolved))) {
        missing.push(`${where}: links to ${target}, but ${resolved} does not exist`);
      } else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
        missing.push(`${where}: links to ${target}, but ${resolved} has no heading #${anchor}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names only npm scripts, and subcommands, that exist', () => {
    const tools = subcommands();
    const missing: string[] = [];
    for (const source of [prose, code]) {
      const pattern =
        /\bnpm (?:run(?:\s+-s)?\s+([\w:.-]+)(?:\s+--\s+([a-z][\w-]*))?|(start|test)\b)/g;
      for (const match of source.matchAll(pattern)) {
        const where = `${file}:${lineAt(source, match.index)}`;
        const script = match[1] ?? match[3]!;
        if (!(script in packageJson.scripts)) {
          missing.push(`${where}: "npm run ${script}", but package.json has no script "${script}"`);
          continue;
        }
        const subcommand = match[2];
        const known = tools[script as keyof typeof tools];
        if (subcommand && known && !known.has(subcommand)) {
          missing.push(
            `${where}: "npm run ${script} -- ${subcommand}", but ${script} knows no "${subcommand}"`,
          );
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('names only repository paths that exist', () => {
    const missing: string[] = [];
    for (const span of spans) {
      if (!PATH_PREFIX.test(span.text) || /\s/.test(span.text)) continue;
      const clean = span.text.replace(/#.*$/, '').replace(/:\d+$/, '');
      // A placeholder (`schemas/<form-id>/`, `*.json`, `…`) stands for any name: the folder
      // before it must exist.
      const segments = clean.split('/');
      const placeholder = segments.findIndex((segment) => /[<>*…{}$]/.test(segment));
      const checked = placeholder === -1 ? clean : segments.slice(0, placeholder).join('/');
      if (!fs.existsSync(path.join(root, checked))) {
        missing.push(`${file}:${span.line}: \`${span.text}\`, but ${checked} does not exist`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('presents as settings only environment variables the code reads', () => {
    const settings = envReadIn(['src', 'scripts']);
    const testKnobs = envReadIn(['tests']);
    const missing: string[] = [];
    const check = (name: string, line: number, readers: Set<string>, where: string) => {
      if (!readers.has(name)) missing.push(`${file}:${line}: ${name}, but ${where} never reads it`);
    };
    // The first column of a table headed "variable" (the configuration table), and a span that is
    // a variable's name alone: settings, which the portal, its CLI or its scripts must read.
    let variableTable = false;
    prose.split('\n').forEach((line, index) => {
      if (!line.startsWith('|')) variableTable = false;
      else if (/^\|\s*variable\s*\|/i.test(line)) variableTable = true;
      else if (variableTable && !/^\|\s*-/.test(line)) {
        const firstCell = line.split('|')[1] ?? '';
        for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) {
          check(match[1]!, index + 1, settings, 'src/ or scripts/');
        }
      }
    });
    // A name alone that starts TEST_ or E2E_ is a setting of the tests themselves (the server
    // tests' TEST_DATABASE_URL): tests/ must read it.
    for (const span of spans) {
      if (/^(TEST|E2E)_[A-Z0-9_]+$/.test(span.text)) {
        check(span.text, span.line, testKnobs, 'tests/');
      } else if (/^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(span.text)) {
        check(span.text, span.line, settings, 'src/ or scripts/');
      }
    }
    // `NAME=value` in a command: a setting, or a knob of the tests (UPDATE_GOLDEN).
    const assignment = /(?:^|[\s`(])([A-Z][A-Z0-9_]{2,})=(?=\S)/gm;
    const knobs = new Set([...settings, ...testKnobs]);
    for (const span of spans) {
      for (const match of span.text.matchAll(assignment)) {
        check(match[1]!, span.line, knobs, 'src/, scripts/ or tests/');
      }
    }
    for (const match of code.matchAll(assignment)) {
      check(match[1]!, lineAt(code, match.index), knobs, 'src/, scripts/ or tests/');
    }
    expect([...new Set(missing)]).toEqual([]);
  });
});
