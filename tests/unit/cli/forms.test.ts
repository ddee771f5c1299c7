/**
 * The `forms` CLI run as a process, as compliance staff and testers run it. Each case is one
 * process of the compiled CLI (tests/compiled.ts), all started together up front.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledEntry } from '../../compiled';
import { fixtureAnswers } from '../../../src/shared/forms/check/fixtures';
import type { Answers } from '../../../src/shared/forms/model/schemaTypes';
import type { PayloadJson } from '../../../src/shared/forms/payload/payload';
import { testForm } from '../../forms';

const projectRoot = path.resolve(__dirname, '../../..');
const example = path.join(projectRoot, 'schemas/individual/individual.example.json');
const ssnFixture = path.join(projectRoot, 'tests/fixtures/forms/individual/ssn-format.json');

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

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

/** Edits a JSON file: sets (or, for `undefined`, deletes) the value at a path of keys. */
function editJson(file: string, keys: string[], value: unknown) {
  const content = readJson(file);
  let node = content as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = keys.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  fs.writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
}

let tmp: string;

/** A copy of the schemas and fixtures with one defect of each kind the check must find. */
function badRoot(): string {
  const root = path.join(tmp, 'bad');
  fs.cpSync(path.join(projectRoot, 'schemas'), path.join(root, 'schemas'), { recursive: true });
  fs.cpSync(
    path.join(projectRoot, 'tests/fixtures/forms'),
    path.join(root, 'tests/fixtures/forms'),
    { recursive: true },
  );
  const schemaFile = path.join(root, 'schemas/individual/individual.schema.json');
  // A question without a prompt, and a limit without its message (users would read Ajv's
  // English default): the last name written out in the form instead of the common one.
  editJson(schemaFile, ['properties', 'lastName'], {
    type: 'string',
    maxLength: 100,
    'x-section': 'userInfo',
  });
  const uiFile = path.join(root, 'schemas/individual/individual.ui.json');
  editJson(uiFile, ['nickname'], { 'ui:placeholder': 'Jimmy' });
  editJson(uiFile, ['firstName', 'ui:widget'], 'sparkles');
  editJson(uiFile, ['lastName', 'ui:field'], 'carousel');
  // rjsf's own widget names are accepted with their meaning…
  for (const [key, widget] of [
    ['secondaryEmailAddress', 'password'],
    ['employerName', 'time'],
  ] as const) {
    editJson(uiFile, [key, 'ui:widget'], widget);
  }
  // …but an object is drawn as one widget only when it is a file reference.
  editJson(uiFile, ['mailingAddress', 'ui:widget'], 'text');
  const fixtureFile = path.join(root, 'tests/fixtures/forms/individual/ssn-format.json');
  editJson(fixtureFile, ['expectedErrors', '0', 'message'], 'SSN looks odd');
  // The e-sign consent without its ESIGN 7001(c) withdrawal disclosure.
  editJson(
    path.join(root, 'schemas/common/esign-consent.json'),
    ['sections', 'withdrawal'],
    undefined,
  );
  return root;
}

/** A copy of the schemas with only the individual form: the business form has no files there. */
function individualOnlyRoot(): string {
  const root = path.join(tmp, 'individual-only');
  fs.cpSync(path.join(projectRoot, 'schemas'), path.join(root, 'schemas'), { recursive: true });
  for (const formId of ['business', 'affiliated-person', 'person']) {
    fs.rmSync(path.join(root, 'schemas', formId), { recursive: true, force: true });
  }
  return root;
}

/** A git repository whose second commit rewords the first-name prompt. */
function rewordedRepo(): string {
  const root = path.join(tmp, 'repo');
  fs.cpSync(path.join(projectRoot, 'schemas'), path.join(root, 'schemas'), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
      cwd: root,
      stdio: 'ignore',
    });
  git('init', '--quiet');
  git('add', 'schemas');
  git('commit', '--quiet', '-m', 'Schemas as shipped');
  // The prompt is worded once for every form that asks a first name (schemas/common/person).
  const schemaFile = path.join(root, 'schemas/common/person.schema.json');
  editJson(schemaFile, ['$defs', 'firstName', 'title'], 'Given name');
  git('commit', '--quiet', '-am', 'Reword the first-name prompt');
  return root;
}

const runs: Record<string, Run> = {};

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-cli-'));
  const bad = badRoot();
  const repo = rewordedRepo();
  const malformed = path.join(tmp, 'malformed.json');
  fs.writeFileSync(malformed, '{"firstName": "Jane",');
  const answersOnly = path.join(tmp, 'bad-ssn.json');
  const answers = fixtureAnswers('individual', readJson(example) as Answers, readJson(ssnFixture));
  fs.writeFileSync(answersOnly, JSON.stringify(answers));
  const started: Record<string, Promise<Run>> = {
    checkGood: forms('check'),
    checkBad: forms('check', '--root', bad),
    validGood: forms('validate', 'individual', example),
    validBad: forms('validate', 'individual', answersOnly),
    validBadJson: forms('validate', 'individual', answersOnly, '--json'),
    validMalformed: forms('validate', 'individual', malformed),
    validUnknownForm: forms('validate', 'business', example, '--root', individualOnlyRoot()),
    wordingSince: forms('wording', '--since', 'HEAD~1', '--root', repo),
    wordingAt: forms('wording', '--at', testForm('individual').hash, '--root', repo),
    payload: forms('payload', 'individual', example),
  };
  for (const [name, run] of Object.entries(started)) runs[name] = await run;
}, 120_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('forms check', () => {
  it('passes the project schemas and fixtures (exit 0)', () => {
    const run = runs.checkGood!;
    expect(run.stdout).toMatch(/^OK: 4 forms \(affiliated-person, business, individual, person\)/);
    expect(run.stdout).toContain('the e-sign consent is complete');
    expect(run.code).toBe(0);
  });

  it('names the file and pointer of each problem (exit 1)', () => {
    const { code, stdout } = runs.checkBad!;
    const ui = `${tmp}/bad/schemas/individual/individual.ui.json`;
    const schema = `${tmp}/bad/schemas/individual/individual.schema.json`;
    const fixture = `${tmp}/bad/tests/fixtures/forms/individual/ssn-format.json`;
    expect(stdout).toContain(
      `${schema}\n  /properties/lastName (line 208, column 5)  question has no title (prompt)`,
    );
    expect(stdout).toContain(`${ui}\n`);
    // Each at its line and column (issue 37 §4).
    expect(stdout).toContain(
      '  /firstName/ui:widget (line 168, column 5)  unknown widget "sparkles"',
    );
    expect(stdout).toContain('  /lastName/ui:field (line 172, column 5)  unknown field "carousel"');
    expect(stdout).toContain(
      '  /mailingAddress/ui:widget (line 248, column 5)  "ui:widget" draws an object as one answer only for a file reference',
    );
    expect(stdout).not.toContain('unknown widget "password"');
    expect(stdout).not.toContain('unknown widget "time"');
    expect(stdout).toContain(
      '  /nickname (line 420, column 3)  no property nickname in the schema',
    );
    // A fixture's mismatch is a diff, one message a line (issue 25 §3).
    expect(stdout).toContain(
      `${fixture}\n  /expectedErrors (line 10, column 3)  the answers give other messages than expected:\n` +
        '      - expected, not given: /socialSecurityNumber: SSN',
    );
    expect(stdout).toContain(
      '      + given, not expected: /socialSecurityNumber: Incorrect SSN format',
    );
    expect(stdout).toContain(
      '  /properties/lastName/maxLength (line 210, column 7)  no errorMessage for maxLength',
    );
    expect(stdout).toContain(
      `${tmp}/bad/schemas/common/esign-consent.json\n  /sections/withdrawal/heading (line 7, column 3)  the withdrawal disclosure (ESIGN 7001(c)) needs its heading`,
    );
    expect(stdout).toContain('9 problems in 4 files');
    expect(code).toBe(1);
  });
});

describe('forms validate', () => {
  it('says valid answers are valid (exit 0)', () => {
    const run = runs.validGood!;
    expect(run.stdout).toBe(`${example}: valid individual answers.\n`);
    expect(run.code).toBe(0);
  });

  it('lists each message with its field (exit 1)', () => {
    const run = runs.validBad!;
    expect(run.stdout).toContain('1 problem with these individual answers');
    expect(run.stdout).toContain(
      '  /socialSecurityNumber (Social Security number)\n' +
        '    Incorrect SSN format, must be NNN-NN-NNNN',
    );
    expect(run.code).toBe(1);
  });

  it('prints {valid, errors: [{path, message}], unasked} with --json', () => {
    const run = runs.validBadJson!;
    expect(JSON.parse(run.stdout)).toEqual({
      valid: false,
      errors: [
        { path: '/socialSecurityNumber', message: 'Incorrect SSN format, must be NNN-NN-NNNN' },
      ],
      unasked: [],
    });
    expect(run.code).toBe(1);
  });

  it('refuses a malformed answers file (exit 2)', () => {
    const run = runs.validMalformed!;
    // Said by line and column, as an editor shows them (issue 25 §3), not by character position.
    expect(run.stderr).toMatch(
      /^forms: .*malformed\.json is not valid JSON at line \d+, column \d+: /,
    );
    expect(run.stderr).not.toContain('position');
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  });

  it('refuses a form whose schemas do not exist, naming the available ones (exit 2)', () => {
    const run = runs.validUnknownForm!;
    expect(run.stderr).toContain('unknown form "business"');
    expect(run.stderr).toContain('available forms: individual');
    expect(run.code).toBe(2);
  });
});

describe('forms wording', () => {
  it('--since shows the reworded prompt, before and after', () => {
    const run = runs.wordingSince!;
    expect(run.stdout).toContain('since HEAD~1 (1)');
    expect(run.stdout).toContain(
      '| changed | schemas/common/person.schema.json | /$defs/firstName/title | ' +
        'prompt | First name | Given name |',
    );
    expect(run.code).toBe(0);
  });

  it('--at <schema hash> finds the commit and shows the wording then', () => {
    const run = runs.wordingAt!;
    expect(run.stdout).toMatch(/the individual form at commit \w+ [\d-]+ Schemas as shipped/);
    expect(run.stdout).toContain(
      '| schemas/common/person.schema.json | /$defs/firstName/title | prompt | First name |',
    );
    expect(run.code).toBe(0);
  });
});

describe('forms payload', () => {
  it('prints the prompt+value sections, files as references', () => {
    const run = runs.payload!;
    const payload = JSON.parse(run.stdout) as PayloadJson;
    expect(payload.formId).toBe('individual');
    expect(payload.schemaHash).toBe(testForm('individual').hash);
    expect(payload.parts.userInfo?.firstName).toEqual({ prompt: 'First name', value: 'Jane' });
    expect(payload.files).toContainEqual(
      expect.objectContaining({ part: 'photoId', name: 'license-front.jpg' }),
    );
    expect(run.code).toBe(0);
  });
});
