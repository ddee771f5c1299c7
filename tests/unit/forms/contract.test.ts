import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFixture, checkForms, type Fixture } from '../../../src/shared/forms/check/checkForms';
import { projectSources, testForm, testForms } from '../../forms';

const fixturesDir = path.resolve(__dirname, '../../fixtures/forms');

function readFixtures(formId: string): Fixture[] {
  const dir = path.join(fixturesDir, formId);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({
      file: `tests/fixtures/forms/${formId}/${name}`,
      content: JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as unknown,
    }));
}

describe('schema contract', () => {
  // Compiles every form in strict mode, checks titles, uiSchema keys, widgets and examples.
  const assetFiles = fs
    .readdirSync(path.resolve(__dirname, '../../../assets/pdfs'))
    .map((name) => `/assets/pdfs/${name}`);
  const { problems } = checkForms(projectSources(), [], { assetFiles });

  it('every schema compiles, has prompts, a valid uiSchema and a valid example', () => {
    expect(problems).toEqual([]);
  });

  for (const formId of testForms().keys()) {
    const fixtures = readFixtures(formId);
    it(`${formId} has fixtures`, () => expect(fixtures.length).toBeGreaterThan(0));
    for (const fixture of fixtures) {
      it(`${fixture.file} yields exactly its expected messages`, () => {
        expect(checkFixture(testForm(formId), fixture)).toEqual([]);
      });
    }
  }
});
