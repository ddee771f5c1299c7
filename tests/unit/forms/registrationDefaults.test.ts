/**
 * `x-registration`'s defaults (issue 37 §4): a kind writes only what is its own; its choice, page
 * and confirmation come from the form's title and description and the portal's usual words.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CHOICE_ORDER,
  DEFAULT_OTHER_CHOICE,
  DEFAULT_SUBMITTED,
  registrationOf,
} from '../../../src/shared/forms/model/registration';
import type { JsonSchema, WrittenRegistration } from '../../../src/shared/forms/model/schemaTypes';
import { testForm } from '../../forms';

const own: WrittenRegistration = {
  organizationKind: 'business',
  organizationName: ['poolName'],
  userDetails: { firstName: 'firstName', lastName: 'lastName', phoneNumber: 'phoneNumber' },
};

const pool = (registration: object): JsonSchema => ({
  type: 'object',
  title: 'Commodity pool operator registration',
  description: 'Register a commodity pool operator.',
  'x-registration': { ...own, ...registration },
});

describe('registrationOf', () => {
  it("fills choice, page and submitted from the form's title, description and the usual confirmation", () => {
    expect(registrationOf(pool({}))).toEqual({
      ...own,
      choice: {
        label: 'Commodity pool operator registration',
        description: 'Register a commodity pool operator.',
        order: DEFAULT_CHOICE_ORDER,
      },
      page: { title: 'Commodity pool operator registration', otherChoice: DEFAULT_OTHER_CHOICE },
      submitted: DEFAULT_SUBMITTED,
    });
  });

  it('keeps each member a form gives, defaulting the others', () => {
    const served = registrationOf(
      pool({ choice: { label: 'Pool operator' }, submitted: { button: 'Done' } }),
    )!;
    expect(served.choice.label).toBe('Pool operator');
    expect(served.choice.description).toBe('Register a commodity pool operator.');
    expect(served.submitted).toEqual({ ...DEFAULT_SUBMITTED, button: 'Done' });
  });

  it("is the individual registration's own confirmation, and undefined for a form that is none", () => {
    expect(testForm('individual').registration!.submitted).toEqual(DEFAULT_SUBMITTED);
    expect(registrationOf({ type: 'object' })).toBeUndefined();
  });
});
