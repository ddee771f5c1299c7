/**
 * Fixtures are the example plus a JSON Patch (issue 16 §7): adding a required question touches
 * the example and only the fixtures about that question, and a patch that no longer applies is
 * named in one sentence with its file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskTree, readFixtures, readFormSources } from '../../../src/cli/forms/readFormFiles';
import { checkFixture, checkForms, type Problem } from '../../../src/shared/forms/check/checkForms';
import { FixtureError, fixtureAnswers } from '../../../src/shared/forms/check/fixtures';
import type { Answers } from '../../../src/shared/forms/model/schemaTypes';
import { testForm } from '../../forms';

const projectRoot = path.resolve(__dirname, '../../..');
const readJson = (file: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
const writeJson = (file: string, value: unknown) =>
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** The problems `forms check` finds in the schemas and fixtures under `root`. */
function check(root: string, formsDir?: string): Problem[] {
  const tree = diskTree(root, formsDir);
  const { sources } = readFormSources(tree);
  return checkForms(sources, readFixtures(tree).fixtures).problems;
}

describe("a FORMS_DIR form's own fixtures (issue 37 §4)", { timeout: 120_000 }, () => {
  it('are read from its folder, named by their form, and run with the others', () => {
    const tree = diskTree(projectRoot, 'tests/fixtures/rule-forms');
    const own = readFixtures(tree).fixtures.filter((f) => f.formId === 'commodity-pool');
    expect(own.map((f) => f.file).sort()).toEqual([
      'schemas/commodity-pool/fixtures/no-control-no-25.json',
      'schemas/commodity-pool/fixtures/ownership-100.json',
      'schemas/commodity-pool/fixtures/ownership-over-100.json',
      'schemas/commodity-pool/fixtures/signer-not-an-officer.json',
      'schemas/commodity-pool/fixtures/two-control-persons.json',
    ]);
    expect(tree.where!(own[0]!.file)).toBe(
      path.join(
        projectRoot,
        'tests/fixtures/rule-forms/commodity-pool/fixtures',
        path.basename(own[0]!.file),
      ),
    );
    expect(check(projectRoot, 'tests/fixtures/rule-forms')).toEqual([]);
  });
});

// Compiling every form twice takes seconds on a busy shared machine.
describe('fixtures as patches of the example', { timeout: 120_000 }, () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fixtures-'));
  afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a new required question of the affiliated person touches its examples and only the fixtures about it', () => {
    fs.cpSync(path.join(projectRoot, 'schemas'), path.join(tmp, 'schemas'), { recursive: true });
    fs.cpSync(
      path.join(projectRoot, 'tests/fixtures/forms'),
      path.join(tmp, 'tests/fixtures/forms'),
      { recursive: true },
    );
    expect(check(tmp)).toEqual([]);

    // Compliance adds a required question to the affiliated person (shared by the dialog's form
    // and each person of the business form)...
    const commonFile = path.join(tmp, 'schemas/common/affiliated-person.schema.json');
    const common = readJson(commonFile) as {
      $defs: { affiliatedPerson: Record<string, Record<string, unknown>> };
    };
    const person = common.$defs.affiliatedPerson;
    person.properties!.citizenship = {
      type: 'string',
      title: 'Country of citizenship',
      maxLength: 100,
      'x-section': 'ownership',
      errorMessage: { maxLength: 'Country of citizenship must be at most 100 characters' },
    };
    (person.required as unknown as string[]).push('citizenship');
    (person.errorMessage!.required as Record<string, string>).citizenship =
      'Must provide country of citizenship';
    writeJson(commonFile, common);
    const uiFile = path.join(tmp, 'schemas/affiliated-person/affiliated-person.ui.json');
    const ui = readJson(uiFile) as { 'ui:order': string[] };
    ui['ui:order'].push('citizenship');
    writeJson(uiFile, ui);
    const stale = check(tmp);
    expect(stale.map((p) => p.file)).toContain(
      'schemas/affiliated-person/affiliated-person.example.json',
    );

    // ...and answers it in the examples, the only answers files written in full.
    const personExampleFile = path.join(
      tmp,
      'schemas/affiliated-person/affiliated-person.example.json',
    );
    writeJson(personExampleFile, { ...readJson(personExampleFile), citizenship: 'US' });
    const businessExampleFile = path.join(tmp, 'schemas/business/business.example.json');
    const business = readJson(businessExampleFile) as { affiliatedPersons: Answers[] };
    business.affiliatedPersons = business.affiliatedPersons.map((p) => ({
      ...p,
      citizenship: 'US',
    }));
    writeJson(businessExampleFile, business);

    const problems = check(tmp);
    // What still disagrees is about the new question: forms that list every required message
    // of a blank person, and persons a fixture adds whole.
    expect(problems.map((p) => p.file).sort()).toEqual(FIXTURES_ABOUT_THE_PERSON);
    for (const problem of problems) {
      expect(problem.message).toContain('Must provide country of citizenship');
    }
    const total = readFixtures(diskTree(tmp)).fixtures.length;
    expect(total - problems.length).toBeGreaterThan(120);
  });

  it('names a fixture whose patch no longer applies to the example, in one sentence', () => {
    const file = 'tests/fixtures/forms/individual/renamed-answer.json';
    const content = {
      description: 'Written before secondaryPhoneNumber was renamed.',
      patch: [
        { op: 'replace', path: '/lastName', value: 'Okoro' },
        { op: 'remove', path: '/secondaryPhone' },
      ],
      expectedErrors: [],
    };
    expect(checkFixture(testForm('individual'), { file, content })).toEqual([
      {
        file,
        pointer: '/patch/1',
        message:
          'patch operation 2 (remove /secondaryPhone) no longer applies to ' +
          'schemas/individual/individual.example.json: the example has no answer at that path',
      },
    ]);
    expect(() => fixtureAnswers('individual', testForm('individual').example, content)).toThrow(
      FixtureError,
    );
  });

  it('applies a patch to a copy: the example stays as it is', () => {
    const example = testForm('person').example;
    const before = JSON.stringify(example);
    const answers = fixtureAnswers('person', example, {
      patch: [{ op: 'replace', path: '/firstName', value: 'Ife' }],
      expectedErrors: [],
    });
    expect(answers.firstName).toBe('Ife');
    expect(JSON.stringify(example)).toBe(before);
  });
});

const FIXTURES_ABOUT_THE_PERSON = [
  'tests/fixtures/forms/affiliated-person/blank-form.json',
  'tests/fixtures/forms/business/affiliated-persons-item-errors.json',
  'tests/fixtures/forms/business/affiliated-persons-too-many.json',
];
