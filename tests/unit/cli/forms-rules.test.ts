/**
 * Rules across answers and `maxContains` through the `forms` command line (issue 37 §1, §2): the
 * business fixtures over and at 100 % of direct ownership, and a form of its own (a `FORMS_DIR`
 * folder) saying 'exactly one control person', whose answers naming two are refused.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledEntry } from '../../compiled';

const projectRoot = path.resolve(__dirname, '../../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function forms(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [compiledEntry('src/cli/forms.ts'), ...args],
      { cwd: projectRoot, encoding: 'utf8', env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

const OVER = 'tests/fixtures/forms/business/affiliated-persons-direct-ownership-over-100.json';
const AT_100 = 'tests/fixtures/forms/business/affiliated-persons-direct-ownership-100.json';

let tmp: string;
const runs: Record<string, Run> = {};

/** A pool operator's form in a FORMS_DIR folder: exactly one principal is the control person. */
function poolFolder(): string {
  const dir = path.join(tmp, 'forms');
  const folder = path.join(dir, 'pool');
  fs.mkdirSync(folder, { recursive: true });
  const write = (name: string, content: unknown) =>
    fs.writeFileSync(path.join(folder, name), JSON.stringify(content, null, 2));
  const principal = (name: string, control: boolean) => ({ name, control });
  write('pool.schema.json', {
    type: 'object',
    title: 'Commodity pool',
    'x-messages': { type: 'Please check this answer', required: 'Please answer this question' },
    properties: {
      principals: {
        type: 'array',
        title: 'Principals',
        items: {
          type: 'object',
          title: 'Principal',
          properties: {
            name: { type: 'string', title: 'Name' },
            control: { type: 'boolean', title: 'Control person' },
          },
        },
        contains: { properties: { control: { const: true } }, required: ['control'] },
        minContains: 1,
        maxContains: 1,
        errorMessage: { contains: 'Exactly one principal is the control person' },
      },
    },
  });
  write('pool.ui.json', {});
  write('pool.example.json', { principals: [principal('Ada', true), principal('Ben', false)] });
  fs.writeFileSync(
    path.join(tmp, 'two-controls.json'),
    JSON.stringify({ principals: [principal('Ada', true), principal('Ben', true)] }),
  );
  return dir;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-rules-'));
  const formsDir = poolFolder();
  const started: Record<string, Promise<Run>> = {
    over: forms(['validate', 'business', OVER]),
    at100: forms(['validate', 'business', AT_100]),
    poolCheck: forms(['check'], { FORMS_DIR: formsDir }),
    twoControls: forms(['validate', 'pool', path.join(tmp, 'two-controls.json')], {
      FORMS_DIR: formsDir,
    }),
  };
  for (const [name, run] of Object.entries(started)) runs[name] = await run;
}, 120_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the business form: direct ownership at most 100 %', () => {
  it('refuses the fixture adding up to 120 %, at the list, and says it expected so (exit 1)', () => {
    const { stdout, code } = runs.over!;
    expect(stdout).toContain(
      '  /affiliatedPersons (Affiliated persons: individuals with 10% or more direct or indirect ownership, plus officers and managing members)\n' +
        '    The direct ownership of the persons listed adds up to 120 %; it can be at most 100 %',
    );
    expect(stdout).toContain('1 problem with these business answers');
    expect(code).toBe(1);
  });

  it('accepts the fixture at exactly 100 % (exit 0)', () => {
    expect(runs.at100!.stdout).toContain('valid business answers');
    expect(runs.at100!.code).toBe(0);
  });
});

describe('a form with maxContains', () => {
  it('passes forms check', () => {
    expect(runs.poolCheck!.stdout).toMatch(
      /^OK: 5 forms \(affiliated-person, business, individual, person, pool\)/,
    );
    expect(runs.poolCheck!.code).toBe(0);
  });

  it('refuses two control persons, on the list alone (exit 1)', () => {
    const { stdout, code } = runs.twoControls!;
    expect(stdout).toContain('1 problem with these pool answers');
    expect(stdout).toContain(
      '  /principals (Principals)\n    Exactly one principal is the control person',
    );
    expect(stdout).not.toContain('/principals/');
    expect(code).toBe(1);
  });
});
