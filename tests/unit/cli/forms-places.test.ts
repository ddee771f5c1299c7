/**
 * `forms check` and `forms validate` name each problem at its true place (issue 37 §4): a
 * `FORMS_DIR` form by its own folder, with the JSON pointer, line and column; a trailing comma at
 * the comma; a misspelt keyword or common definition with the name meant; `x-registration`'s
 * missing member by name; validate in check's words; a fixture's stray answers said once; a
 * `FORMS_DIR` form's fixtures in its own folder, run by the plain check; `wording --at` finding a
 * `FORMS_DIR` form's hash on disk and in a commit.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledEntry } from '../../compiled';
import { compileFormsOnDisk } from '../../../src/shared/forms/model/compileNode';

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
let formsDir: string;
const runs: Record<string, Run> = {};

/** A small form of one number question, `edit` changing its schema. */
function writeForm(id: string, edit: (schema: Record<string, unknown>) => void, text?: string) {
  const folder = path.join(formsDir, id);
  fs.mkdirSync(folder, { recursive: true });
  const schema: Record<string, unknown> = {
    type: 'object',
    title: 'Pool',
    'x-messages': { type: 'Please check this answer', required: 'Please answer this question' },
    properties: {
      units: {
        type: 'number',
        title: 'Units held',
        maximum: 100,
        errorMessage: { maximum: 'At most 100 units' },
      },
    },
  };
  edit(schema);
  const file = (kind: string) => path.join(folder, `${id}.${kind}.json`);
  fs.writeFileSync(file('schema'), text ?? `${JSON.stringify(schema, null, 2)}\n`);
  fs.writeFileSync(file('ui'), '{}\n');
  fs.writeFileSync(file('example'), '{ "units": 5 }\n');
  return file('schema');
}

const RULE_FORMS = path.join(projectRoot, 'tests/fixtures/rule-forms');

const file = (id: string) => `${formsDir}/${id}/${id}.schema.json`;

const units = (schema: Record<string, unknown>) =>
  (schema.properties as Record<string, Record<string, unknown>>).units!;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-places-'));
  formsDir = path.join(tmp, 'forms');
  writeForm('typo-keyword', (schema) => {
    delete units(schema).maximum;
    units(schema).maximun = 100;
  });
  writeForm('typo-ref', (schema) => {
    (schema.properties as Record<string, unknown>).lastName = {
      $ref: '../common/person.schema.json#/$defs/lastNme',
    };
  });
  // The comma closing line 9 is the fault; JSON.parse notices it on line 10.
  writeForm(
    'trailing-comma',
    () => {},
    [
      '{',
      '  "type": "object",',
      '  "title": "Pool",',
      '  "x-messages": { "type": "Please check this answer" },',
      '  "properties": {',
      '    "units": {',
      '      "type": "number",',
      '      "title": "Units held",',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  writeForm('pool-operator', (schema) => {
    schema['x-registration'] = {
      organizationKind: 'business',
      organizationName: ['units'],
      userDetails: { firstName: 'units', lastName: 'units' },
    };
  });
  const stray = path.join(tmp, 'stray.json');
  fs.writeFileSync(
    stray,
    JSON.stringify({ patch: [{ op: 'add', path: '/nmae', value: 'Bo' }], expectedErrors: [] }),
  );
  // The commodity pool operator (x-registration with its defaults, its fixtures in its folder),
  // and a copy whose fixture expects a message the form does not give.
  const rulesDir = path.join(projectRoot, 'tests/fixtures/rule-forms');
  const wrongDir = path.join(tmp, 'wrong');
  fs.cpSync(rulesDir, wrongDir, { recursive: true });
  const wrongFixture = path.join(wrongDir, 'commodity-pool/fixtures/two-control-persons.json');
  const fixture = JSON.parse(fs.readFileSync(wrongFixture, 'utf8')) as {
    expectedErrors: { message: string }[];
  };
  fixture.expectedErrors[0]!.message = 'Only one control person';
  fs.writeFileSync(wrongFixture, JSON.stringify(fixture, null, 2));
  const poolHash = compileFormsOnDisk(projectRoot, ['commodity-pool'], rulesDir).get(
    'commodity-pool',
  )!.hash;
  // A form folder without its example, a folder whose name is no form id, a form that does not
  // parse with a fixture waiting for it; in a project of their own, a fixture and a golden
  // payload of a form nobody has.
  writeForm('no-example', () => {});
  fs.rmSync(path.join(formsDir, 'no-example', 'no-example.example.json'));
  writeForm('Pool_Operator', () => {});
  writeForm('broken-list', () => {}, '{\n  "type": "object",\n  "required": ["units", ]\n}\n');
  fs.mkdirSync(path.join(formsDir, 'broken-list', 'fixtures'));
  fs.writeFileSync(path.join(formsDir, 'broken-list', 'fixtures', 'one.json'), '{}\n');
  const project = path.join(tmp, 'project');
  fs.cpSync(path.join(projectRoot, 'schemas'), path.join(project, 'schemas'), { recursive: true });
  for (const [folder, name] of [
    ['tests/fixtures/forms/pool', 'blank.json'],
    ['tests/fixtures/payloads', 'pool.golden.json'],
  ] as const) {
    fs.mkdirSync(path.join(project, folder), { recursive: true });
    fs.writeFileSync(path.join(project, folder, name), '{\n  "patch": []\n}\n');
  }
  // The commodity pool in a repository of its own (FORMS_DIR=forms), committed, then reworded:
  // its committed hash is found in git, and one outside any repository on disk.
  const repo = path.join(tmp, 'repo');
  fs.cpSync(path.join(projectRoot, 'schemas'), path.join(repo, 'schemas'), { recursive: true });
  fs.cpSync(path.join(RULE_FORMS, 'commodity-pool'), path.join(repo, 'forms/commodity-pool'), {
    recursive: true,
  });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=C', '-c', 'user.email=c@example.test', ...args], {
      cwd: repo,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'the pool as published');
  const committedHash = compileFormsOnDisk(repo, ['commodity-pool'], 'forms').get(
    'commodity-pool',
  )!.hash;
  const repoSchema = path.join(repo, 'forms/commodity-pool/commodity-pool.schema.json');
  fs.writeFileSync(
    repoSchema,
    fs.readFileSync(repoSchema, 'utf8').replace('"Name of the pool"', '"Pool name"'),
  );
  const outside = path.join(tmp, 'outside');
  fs.cpSync(path.join(RULE_FORMS, 'commodity-pool'), path.join(outside, 'commodity-pool'), {
    recursive: true,
  });
  const outsideHash = compileFormsOnDisk(projectRoot, ['commodity-pool'], outside).get(
    'commodity-pool',
  )!.hash;
  const env = { FORMS_DIR: formsDir };
  const example = path.join(formsDir, 'typo-keyword', 'typo-keyword.example.json');
  const started: Record<string, Promise<Run>> = {
    check: forms(['check'], env),
    noForm: forms(['check', '--root', project]),
    validateTypo: forms(['validate', 'typo-keyword', example], env),
    stray: forms(['validate', 'individual', stray]),
    pool: forms(['check'], { FORMS_DIR: rulesDir }),
    poolWording: forms(['wording', '--at', poolHash], { FORMS_DIR: rulesDir }),
    help: forms(['--help']),
    committedWording: forms(['wording', '--at', committedHash, '--root', repo], {
      FORMS_DIR: 'forms',
    }),
    outsideWording: forms(['wording', '--at', outsideHash], { FORMS_DIR: outside }),
    wrongPool: forms(['check'], { FORMS_DIR: wrongDir }),
  };
  for (const [name, run] of Object.entries(started)) runs[name] = await run;
}, 120_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('forms check on a broken FORMS_DIR form', () => {
  it('names the folder itself, the pointer, line and column, and the keyword meant', () => {
    const { stdout, code } = runs.check!;
    expect(stdout).toContain(
      `${file('typo-keyword')}\n  /properties/units/maximun (line 15, column 7)  unknown keyword maximun: did you mean maximum?`,
    );
    expect(stdout).not.toContain('schemas/typo-keyword');
    expect(stdout).not.toContain('(whole file)');
    expect(code).toBe(1);
  });

  it('says a trailing comma at the comma, with the pointer of the value it follows', () => {
    expect(runs.check!.stdout).toContain(
      `${file('trailing-comma')}\n  /properties/units/title (line 8, column 28)  not valid JSON: a comma after the last entry (JSON allows none there): remove it`,
    );
    expect(runs.check!.stdout).toContain(
      `${file('broken-list')}\n  /required/0 (line 3, column 23)  not valid JSON: a comma after the last entry`,
    );
  });

  it('gives every problem a pointer and a line and column, or says plainly why it has no line', () => {
    const { stdout } = runs.check!;
    const own = (id: string) => `${formsDir}/${id}`;
    expect(stdout).toContain(
      `${own('no-example')}/no-example.example.json\n  "" (no line: there is no such file)  file is missing`,
    );
    expect(stdout).toContain(
      `${own('Pool_Operator')}\n  "" (no line: a folder, not a file)  a form folder's name is its id`,
    );
    // A problem of the whole file (here: fixtures waiting for their form; a browser build that
    // fails is said the same way) is at the file's root value.
    expect(stdout).toContain(
      `  "" (the whole file, line 1, column 1)  1 fixture not checked until the broken-list form loads`,
    );
    // Every problem line under a file names its place.
    const problems = stdout.split('\n').filter((line) => /^ {2}\S/.test(line));
    expect(problems.length).toBeGreaterThanOrEqual(8);
    for (const line of problems) {
      expect(line).toMatch(
        /^ {2}(\/\S*|"") \((the whole file, )?(line \d+, column \d+|no line: [^)]+)\) /,
      );
    }
  });

  it('names a fixture and a golden payload of no form at their files, line 1, column 1', () => {
    const { stdout, code } = runs.noForm!;
    expect(stdout).toContain(
      `${tmp}/project/tests/fixtures/forms/pool/blank.json\n  "" (the whole file, line 1, column 1)  no form pool (a fixture's folder under tests/fixtures/forms/ is its form's id`,
    );
    expect(stdout).toContain(
      `${tmp}/project/tests/fixtures/payloads/pool.golden.json\n  "" (the whole file, line 1, column 1)  no form pool loads`,
    );
    expect(stdout).toContain('2 problems in 2 files');
    expect(code).toBe(1);
  });

  it('names the common definition meant by a misspelt $ref', () => {
    expect(runs.check!.stdout).toContain(
      `${file('typo-ref')}\n  /properties/lastName/$ref (line 18, column 7)  the common definition lastNme does not exist in schemas/common/person.schema.json (did you mean lastName?)`,
    );
  });

  it("names x-registration's missing member", () => {
    const { stdout } = runs.check!;
    expect(stdout).toContain(
      `${file('pool-operator')}\n  /x-registration/userDetails (line 23, column 5)  x-registration.userDetails needs its member phoneNumber\n`,
    );
    // choice, page and submitted have defaults: not asked for.
    expect(stdout).not.toContain('needs its member choice');
  });
});

describe('forms validate', () => {
  it("says a form that does not compile in check's words, at the place (exit 2)", () => {
    const { stderr, code } = runs.validateTypo!;
    expect(stderr).toContain(
      `${file('typo-keyword')}\n  /properties/units/maximun (line 15, column 7)  unknown keyword maximun: did you mean maximum?`,
    );
    expect(stderr).not.toContain('strict mode');
    expect(code).toBe(2);
  });

  it("says a fixture's stray answers once, pointers with their '/'", () => {
    const { stdout, code } = runs.stray!;
    expect(stdout).toContain(
      'The fixture is not right: it gives answers this form does not ask (/nmae); remove them or correct their paths',
    );
    expect(stdout).not.toContain('These are exactly');
    expect(stdout).not.toContain('valid individual answers');
    expect(code).toBe(1);
  });
});

describe('a FORMS_DIR form carrying its fixtures', () => {
  it('passes the plain forms check, x-registration given only what is its own', () => {
    const { stdout, code } = runs.pool!;
    expect(stdout).toMatch(
      /^OK: 5 forms \(affiliated-person, business, commodity-pool, individual, person\)/,
    );
    expect(code).toBe(0);
  });

  it('runs them: a fixture that disagrees is named by its own path', () => {
    const { stdout, code } = runs.wrongPool!;
    expect(stdout).toContain(
      `${tmp}/wrong/commodity-pool/fixtures/two-control-persons.json\n  /expectedErrors (line 10, column 3)  the answers give other messages than expected:\n` +
        '      - expected, not given: /principals: Only one control person\n' +
        '      + given, not expected: /principals: Exactly one principal is the control person',
    );
    expect(code).toBe(1);
  });
});

describe('FORMS_DIR in the other commands', () => {
  it("wording --at finds a FORMS_DIR form's hash and names its own files", () => {
    const { stdout, code } = runs.poolWording!;
    expect(stdout).toMatch(/: the commodity-pool form at (commit \w+|the working tree)/);
    expect(stdout).toContain(
      '| tests/fixtures/rule-forms/commodity-pool/commodity-pool.schema.json | /title | form | Commodity pool operator registration |',
    );
    expect(code).toBe(0);
  });

  it("wording --at finds a FORMS_DIR form's hash in a commit, with the wording then", () => {
    const { stdout, code } = runs.committedWording!;
    expect(stdout).toMatch(/: the commodity-pool form at commit \w+ \S+ the pool as published\./);
    expect(stdout).toContain(
      '| forms/commodity-pool/commodity-pool.schema.json | /properties/poolName/title | prompt | Name of the pool |',
    );
    expect(code).toBe(0);
  });

  it('wording --at finds the hash of a FORMS_DIR form outside any repository, on disk', () => {
    const { stdout, code } = runs.outsideWording!;
    expect(stdout).toContain('the commodity-pool form at the working tree (not committed yet)');
    expect(stdout).toContain(
      `| ${tmp}/outside/commodity-pool/commodity-pool.schema.json | /title |`,
    );
    expect(code).toBe(0);
  });

  it('forms --help names FORMS_DIR', () => {
    expect(runs.help!.stdout).toMatch(/FORMS_DIR +a folder of further forms/);
  });
});
