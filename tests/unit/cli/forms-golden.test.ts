/**
 * Golden payloads in `forms check`'s world (issue 37 §4): a reworded prompt is named at its line
 * in the golden file by check, and `forms golden` records it again changing only that line,
 * leaving an untouched golden file as it was; a `FORMS_DIR` form's golden payloads, in its own
 * `fixtures/`, alike.
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

let tmp: string;
const goldens = 'tests/fixtures/payloads';
const read = (root: string, name: string) =>
  fs.readFileSync(path.join(root, goldens, name), 'utf8');
const runs: Record<string, Run> = {};

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-golden-'));
  fs.cpSync(path.join(projectRoot, 'schemas'), path.join(tmp, 'schemas'), { recursive: true });
  fs.cpSync(path.join(projectRoot, goldens), path.join(tmp, goldens), { recursive: true });
  // Two prompts of the business form reworded; the individual form is untouched.
  const schema = path.join(tmp, 'schemas/business/business.schema.json');
  const text = fs.readFileSync(schema, 'utf8');
  const reworded = text
    .replace('"title": "Business legal name"', '"title": "Legal name of the business"')
    .replace(
      '"title": "Legal Entity Identifier (LEI)"',
      '"title": "LEI (Legal Entity Identifier)"',
    );
  expect(reworded).not.toBe(text);
  fs.writeFileSync(schema, reworded);
  runs.check = await forms(['check', '--root', tmp]);
  runs.golden = await forms(['golden', '--root', tmp]);
  runs.checkAfter = await forms(['check', '--root', tmp]);
  // The commodity pool (a FORMS_DIR form) with one prompt reworded.
  const formsDir = path.join(tmp, 'rule-forms');
  fs.cpSync(path.join(projectRoot, 'tests/fixtures/rule-forms'), formsDir, { recursive: true });
  const pool = path.join(formsDir, 'commodity-pool/commodity-pool.schema.json');
  const poolText = fs.readFileSync(pool, 'utf8');
  fs.writeFileSync(pool, poolText.replace('"Name of the pool"', '"Name of the commodity pool"'));
  const env = { FORMS_DIR: formsDir };
  runs.poolCheck = await forms(['check'], env);
  runs.poolGolden = await forms(['golden'], env);
  runs.poolCheckAfter = await forms(['check'], env);
}, 120_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('golden payloads', () => {
  it('forms check names a reworded prompt at its line in the golden file (exit 1)', () => {
    const { stdout, code } = runs.check!;
    expect(stdout).toContain(
      '  /payload/parts/clearingRegistration/businessInfo/bizName/prompt (line 56, column 13)  recorded "Business legal name", sent now "Legal name of the business" (if intended, `npm run forms -- golden` records it)',
    );
    expect(stdout).toContain('2 problems in 1 file');
    expect(code).toBe(1);
  });

  it('forms golden rewrites only the reworded lines, and leaves the untouched file alone', () => {
    expect(runs.golden!.stdout).toContain('business.golden.json: recorded again (2 lines changed)');
    expect(runs.golden!.code).toBe(0);
    const before = read(projectRoot, 'business.golden.json').split('\n');
    const after = read(tmp, 'business.golden.json').split('\n');
    expect(after).toHaveLength(before.length);
    const changed = after.flatMap((line, i) => (line === before[i] ? [] : [[before[i], line]]));
    expect(changed).toEqual([
      [
        '            "prompt": "Business legal name",',
        '            "prompt": "Legal name of the business",',
      ],
      [
        '            "prompt": "Legal Entity Identifier (LEI)",',
        '            "prompt": "LEI (Legal Entity Identifier)",',
      ],
    ]);
    expect(read(tmp, 'individual.golden.json')).toBe(read(projectRoot, 'individual.golden.json'));
    expect(runs.checkAfter!.code).toBe(0);
  });
});

describe("a FORMS_DIR form's golden payloads, in its own fixtures/", () => {
  const golden = 'commodity-pool/fixtures/commodity-pool.golden.json';

  it('forms check names a reworded prompt at its line, in the file at its own path', () => {
    const { stdout, code } = runs.poolCheck!;
    expect(stdout).toContain(
      `${tmp}/rule-forms/${golden}\n` +
        '  /payload/parts/answers/poolName/prompt (line 21, column 11)  recorded "Name of the pool", sent now "Name of the commodity pool"',
    );
    expect(stdout).toContain('1 problem in 1 file');
    expect(code).toBe(1);
  });

  it('forms golden rewrites that one line there, and the golden files of schemas/ stay', () => {
    const { stdout, code } = runs.poolGolden!;
    expect(stdout).toContain(`${tmp}/rule-forms/${golden}: recorded again (1 line changed)`);
    expect(stdout).toContain('1 of 3 golden payloads recorded again');
    expect(code).toBe(0);
    const before = fs
      .readFileSync(path.join(projectRoot, 'tests/fixtures/rule-forms', golden), 'utf8')
      .split('\n');
    const after = fs.readFileSync(path.join(tmp, 'rule-forms', golden), 'utf8').split('\n');
    const changed = after.flatMap((line, i) => (line === before[i] ? [] : [[before[i], line]]));
    expect(changed).toEqual([
      [
        '          "prompt": "Name of the pool",',
        '          "prompt": "Name of the commodity pool",',
      ],
    ]);
    expect(runs.poolCheckAfter!.code).toBe(0);
    expect(runs.poolCheckAfter!.stdout).toContain('3 golden payloads are sent as recorded');
  });
});
