/**
 * A new form is a new folder under schemas/: `forms check`, `validate` and `payload` pick it up
 * with no code change (issue 16 §1), as a compliance team copying a form folder does.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledEntry } from '../../compiled';
import type { PayloadJson } from '../../../src/shared/forms/payload/payload';

const projectRoot = path.resolve(__dirname, '../../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function forms(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [compiledEntry('src/cli/forms.ts'), ...args],
      { cwd: projectRoot, encoding: 'utf8' },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

let tmp: string;
const runs: Record<string, Run> = {};

/** schemas/ with the individual form copied to `individual-copy`, its title changed. */
function copiedFolderRoot(): string {
  const root = path.join(tmp, 'copied');
  fs.cpSync(path.join(projectRoot, 'schemas'), path.join(root, 'schemas'), { recursive: true });
  const from = path.join(root, 'schemas/individual');
  const to = path.join(root, 'schemas/individual-copy');
  fs.mkdirSync(to);
  for (const kind of ['schema', 'ui', 'example']) {
    fs.copyFileSync(
      path.join(from, `individual.${kind}.json`),
      path.join(to, `individual-copy.${kind}.json`),
    );
  }
  const schemaFile = path.join(to, 'individual-copy.schema.json');
  const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
  schema.title = 'Individual (copy)';
  fs.writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
  return root;
}

/** schemas/ with a form that holds itself: a tree of people, each with children. */
function recursiveFolderRoot(): string {
  const root = path.join(tmp, 'recursive');
  const folder = path.join(root, 'schemas/family-tree');
  fs.mkdirSync(folder, { recursive: true });
  fs.cpSync(path.join(projectRoot, 'schemas/common'), path.join(root, 'schemas/common'), {
    recursive: true,
  });
  const write = (kind: string, content: unknown) =>
    fs.writeFileSync(path.join(folder, `family-tree.${kind}.json`), JSON.stringify(content));
  write('schema', {
    type: 'object',
    title: 'Family tree',
    'x-messages': { type: 'Please check this answer', required: 'Please answer this question' },
    $defs: {
      person: {
        type: 'object',
        title: 'Person',
        properties: {
          name: { type: 'string', title: 'Name' },
          children: { type: 'array', title: 'Children', items: { $ref: '#/$defs/person' } },
        },
      },
    },
    properties: { ancestor: { $ref: '#/$defs/person' } },
  });
  write('ui', {});
  write('example', { ancestor: { name: 'Ada', children: [{ name: 'Byron' }] } });
  return root;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-new-folder-'));
  const copied = copiedFolderRoot();
  const recursive = recursiveFolderRoot();
  const example = path.join(copied, 'schemas/individual-copy/individual-copy.example.json');
  const started: Record<string, Promise<Run>> = {
    recursive: forms('check', '--root', recursive),
    check: forms('check', '--root', copied),
    validate: forms('validate', 'individual-copy', example, '--root', copied),
    payload: forms('payload', 'individual-copy', example, '--root', copied),
  };
  for (const [name, run] of Object.entries(started)) runs[name] = await run;
}, 120_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('a copied form folder', () => {
  it('is checked by forms check', () => {
    expect(runs.check!.stdout).toMatch(
      /^OK: 5 forms \(affiliated-person, business, individual, individual-copy, person\)/,
    );
    expect(runs.check!.code).toBe(0);
  });

  it('validates answers by its folder name', () => {
    expect(runs.validate!.stdout).toContain('valid individual-copy answers');
    expect(runs.validate!.code).toBe(0);
  });

  it('builds its payload, named by its folder', () => {
    const payload = JSON.parse(runs.payload!.stdout) as PayloadJson;
    expect(payload.formId).toBe('individual-copy');
    expect(Object.keys(payload.parts).length).toBeGreaterThan(0);
    expect(runs.payload!.code).toBe(0);
  });
});

describe('a form that holds itself (a recursive reference)', () => {
  it('is refused by forms check in one sentence naming the file and pointer, never a hang', () => {
    const { stdout, code } = runs.recursive!;
    expect(stdout).toContain(path.join('schemas', 'family-tree', 'family-tree.schema.json'));
    expect(stdout).toContain(
      '/$defs/person/properties/children/items/$ref (line 1, column 291)  the reference #/$defs/person leads back into the schema that holds it',
    );
    expect(stdout).toContain('write out the levels you ask');
    expect(code).toBe(1);
  });
});
