import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { omitHiddenAnswers } from '../../../src/shared/forms/walk/answers';
import { fixtureAnswers } from '../../../src/shared/forms/check/fixtures';
import {
  objectItemsOf,
  propertiesInForce,
  resolveFor,
} from '../../../src/shared/forms/walk/schemaWalk';
import type { Answers } from '../../../src/shared/forms/model/schemaTypes';
import { testForm, testForms } from '../../forms';
const fixturesDir = path.resolve(__dirname, '../../fixtures/forms');

describe('propertiesInForce', () => {
  // The fast path must say what rjsf's general resolution says, for every fixture's answers.
  for (const formId of testForms().keys()) {
    it(`gives the same properties as rjsf's retrieveSchema for every ${formId} fixture`, () => {
      const form = testForm(formId);
      const validator = testForm(formId).validator;
      const dir = path.join(fixturesDir, formId);
      for (const name of fs.readdirSync(dir)) {
        const content: unknown = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
        const answers = fixtureAnswers(formId, form.example, content);
        const keys = (data: unknown, schema = form.schema) => ({
          fast: Object.keys(propertiesInForce(validator, schema, form.schema, data)).sort(),
          rjsf: Object.keys(
            resolveFor(validator, schema, form.schema, data).properties ?? {},
          ).sort(),
        });
        const top = keys(answers);
        expect(top.fast, name).toEqual(top.rjsf);
        const items = objectItemsOf(form.schema.properties?.affiliatedPersons ?? {}, form.schema);
        for (const person of (answers.affiliatedPersons as unknown[] | undefined) ?? []) {
          const inItem = keys(person, items);
          expect(inItem.fast, name).toEqual(inItem.rjsf);
        }
      }
    });
  }

  it('drops unknown and hidden answers inside list items too', () => {
    const example = testForm('business').example;
    const persons = structuredClone(example.affiliatedPersons) as Answers[];
    persons[0]!.favouriteColour = 'blue';
    const shown = omitHiddenAnswers(testForm('business'), {
      ...example,
      affiliatedPersons: persons,
      signerAuthorization: 'yes',
      nfaBylaw1101: { notCftcOrNfaMember: false, notCftcOrNfaMemberExplain: 'stale' },
    });
    expect((shown.affiliatedPersons as Answers[])[0]).not.toHaveProperty('favouriteColour');
    expect(shown).not.toHaveProperty('authorizationForm');
    expect(shown.nfaBylaw1101).toEqual({ notCftcOrNfaMember: false });
  });
});
