/**
 * The business registration's running total (issue 37 §1): the affiliated persons list shows the
 * direct ownership listed so far, computed by the rule that bounds it, never by a second copy.
 */
import { describe, expect, it } from 'vitest';
import { fillValues, ruleValuesAt } from '../../../src/shared/forms/validation/ruleValues';
import { testForm } from '../../forms';

describe('ruleValuesAt', () => {
  const business = testForm('business');
  const text = (business.uiSchema.affiliatedPersons as { 'ui:options': { valuesText: string } })[
    'ui:options'
  ].valuesText;
  const persons = (ownership: [string, unknown][]) => ({
    ...business.example,
    affiliatedPersons: ownership.map(([isDirect, ownershipPercent]) => ({
      isDirect,
      ownershipPercent,
    })),
  });

  it('adds up the direct ownership as the rule does, and the list says it', () => {
    const answers = persons([
      ['direct', 50],
      ['indirect', 30],
      ['direct', 30],
    ]);
    expect(ruleValuesAt(business.schema, answers, '/affiliatedPersons')).toEqual({ total: '80' });
    expect(fillValues(text, { total: '80' })).toBe('Direct ownership listed so far: 80 %');
  });

  it('says nothing at another answer, or while a value cannot be computed', () => {
    expect(ruleValuesAt(business.schema, business.example, '/bizName')).toEqual({});
    const unreadable = persons([['direct', 'fifty']]);
    expect(ruleValuesAt(business.schema, unreadable, '/affiliatedPersons')).toEqual({});
    expect(fillValues(text, {})).toBeUndefined();
  });
});
