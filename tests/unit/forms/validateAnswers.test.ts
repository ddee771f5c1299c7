import { describe, expect, it } from 'vitest';
import { draftSafeAnswers, omitHiddenAnswers } from '../../../src/shared/forms/walk/answers';
import { compileForms } from '../../../src/shared/forms/model/compileNode';
import {
  createRjsfValidator,
  fromErrorSchema,
  toRjsfErrors,
} from '../../../src/shared/forms/validation/rjsfErrors';
import { validateAnswers } from '../../../src/shared/forms/validation/validateAnswers';
import { postalCodeProblem } from '../../../src/shared/rules/postalCode';
import type { RJSFSchema } from '@rjsf/utils';
import { projectSources, testForm } from '../../forms';
const form = testForm('individual');
const example = form.example;

describe('loadForm', () => {
  it('bundles common definitions and substitutes the firm name', () => {
    expect(JSON.stringify(form.schema)).not.toContain('../common/');
    expect(JSON.stringify(form.schema)).not.toContain('{firm}');
    expect(form.schema.properties?.relationToNorthstarEmployee?.title).toBe(
      'Are you related to an employee of Northstar Clearing?',
    );
    expect(form.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(testForm('individual')).toBe(form);
  });

  it('compiles the forms whose folders exist, and only those', () => {
    const sources = projectSources();
    const { business: _business, ...others } = sources.forms;
    const { forms, problems } = compileForms({ ...sources, forms: others });
    expect(problems).toEqual([]);
    expect(forms.has('business')).toBe(false);
    expect([...forms.keys()]).toContain('individual');
  });
});

describe('validateAnswers', () => {
  it('moves required messages to the missing field and drops the generic if/then error', () => {
    const { errors } = validateAnswers(testForm('individual'), {
      ...example,
      unsatisfiedDebts: true,
    });
    expect(errors).toEqual([
      {
        path: '/unsatisfiedDebtsDetails',
        message: 'Must provide details of your unsatisfied debts',
      },
    ]);
  });

  it('gives every message that applies to a field, in form order (issue 37 §2)', () => {
    const { errors } = validateAnswers(testForm('individual'), {
      ...example,
      agreeSignature: false,
      firstName: '',
      mailingAddress: { ...(example.mailingAddress as object), postalCode: '1a' },
    });
    expect(errors).toEqual([
      { path: '/firstName', message: 'Must provide first name' },
      { path: '/mailingAddress/postalCode', message: 'Postal code can only contain numbers.' },
      { path: '/mailingAddress/postalCode', message: 'Postal code must be 5 digits.' },
      { path: '/agreeSignature', message: 'Must provide your electronic signature' },
    ]);
  });

  it('reports problems inside a file reference on the file answer', () => {
    const { errors } = validateAnswers(testForm('individual'), {
      ...example,
      photoId: { name: 'a.jpg', type: 'image/jpeg', size: 20 * 1024 * 1024 },
    });
    expect(errors).toEqual([{ path: '/photoId', message: 'The file must be at most 10 MB' }]);
  });

  it('agrees with the postal code rule', () => {
    const messages = {
      digits: 'Postal code can only contain numbers.',
      length: 'Postal code must be 5 digits.',
    };
    for (const [country, postalCode] of [
      ['US', '10118'],
      ['US', '1011A'],
      ['US', '123456'],
      ['US', '12 34'],
      ['US', '60601-1234'],
      ['GB', 'SW1A 2AA'],
    ] as const) {
      const address = { ...(example.mailingAddress as object), country, postalCode };
      const problem = postalCodeProblem(country, postalCode);
      const { errors } = validateAnswers(testForm('individual'), {
        ...example,
        mailingAddress: address,
      });
      expect(errors).toEqual(
        problem ? [{ path: '/mailingAddress/postalCode', message: messages[problem] }] : [],
      );
    }
  });
});

describe('omitHiddenAnswers', () => {
  it('leaves out answers whose condition no longer holds, and unknown keys', () => {
    const shown = omitHiddenAnswers(testForm('individual'), {
      ...example,
      marriedStatus: false,
      employmentStatus: 'Retired',
      idType: 'passport',
      somethingElse: 1,
    });
    for (const key of [
      'numberOfDependents',
      'employerName',
      'employerAddress',
      'employmentNatureOfBusiness',
      'photoIdBack',
      'somethingElse',
    ]) {
      expect(shown).not.toHaveProperty(key);
    }
    expect(shown.photoId).toEqual(example.photoId);
    expect(shown.mailingAddress).toEqual(example.mailingAddress);
  });

  it("descends into each item of a list of objects (an affiliated person's unknown keys)", () => {
    const business = testForm('business').example;
    const [person] = business.affiliatedPersons as Record<string, unknown>[];
    const shown = omitHiddenAnswers(testForm('business'), {
      ...business,
      affiliatedPersons: [{ ...person, somethingElse: 1 }, 'not a person'],
    });
    expect(shown.affiliatedPersons).toEqual([person, 'not a person']);
    expect(shown.dba).toEqual(business.dba);
  });
});

describe('draftSafeAnswers', () => {
  it('drops files, agreements and sensitive answers', () => {
    const draft = draftSafeAnswers(testForm('individual'), example);
    for (const key of [
      'socialSecurityNumber',
      'dateOfBirth',
      'photoId',
      'photoIdBack',
      'irsFormW2',
      'agreeTermsOfService',
      'agreeSignature',
    ]) {
      expect(draft).not.toHaveProperty(key);
    }
    expect(draft.firstName).toBe('Jane');
    expect(draft.mailingAddress).toEqual(example.mailingAddress);
    expect(draft.numberOfDependents).toBe(2);
  });

  it("keeps an affiliated person's name and address, never their SSN, passport or birth date", () => {
    const business = testForm('business').example;
    const [person] = business.affiliatedPersons as Record<string, unknown>[];
    const withPassport = { ...person, passportNumber: 'X1234567', passportCountryOfIssuance: 'GB' };
    const draft = draftSafeAnswers(testForm('business'), {
      ...business,
      affiliatedPersons: [withPassport],
    });
    const [kept] = draft.affiliatedPersons as Record<string, unknown>[];
    for (const key of ['ssn', 'dob', 'passportNumber']) expect(kept).not.toHaveProperty(key);
    expect(kept).toMatchObject({
      firstName: person!.firstName,
      lastName: person!.lastName,
      addressLine1: person!.addressLine1,
      passportCountryOfIssuance: 'GB',
    });
    expect(draft.dba).toEqual(business.dba);
  });
});

describe('rjsf errors', () => {
  it('builds the error list and ErrorSchema, and back', () => {
    const errors = [
      { path: '/firstName', message: 'Must provide first name' },
      { path: '/mailingAddress/postalCode', message: 'Postal code must be 5 digits.' },
    ];
    const rjsf = toRjsfErrors(errors, testForm('individual'));
    expect(rjsf.errors[1]).toMatchObject({
      property: '.mailingAddress.postalCode',
      message: 'Postal code must be 5 digits.',
      title: 'Postal code',
    });
    expect(rjsf.errorSchema).toEqual({
      firstName: { __errors: ['Must provide first name'] },
      mailingAddress: { postalCode: { __errors: ['Postal code must be 5 digits.'] } },
    });
    expect(fromErrorSchema(rjsf.errorSchema)).toEqual(errors);
  });

  it('validates for rjsf with our messages', () => {
    const validator = createRjsfValidator(testForm('individual'));
    const schema = form.schema as RJSFSchema;
    const result = validator.validateFormData(
      { ...example, marriedStatus: true, numberOfDependents: undefined },
      schema,
    );
    expect(result.errors.map((error) => [error.property, error.message])).toEqual([
      ['.numberOfDependents', 'Must provide number of dependents'],
    ]);
    expect(validator.isValid({ type: 'object' }, {}, schema)).toBe(true);
  });
});
