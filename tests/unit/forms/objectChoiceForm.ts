import type { FormSources } from '../../../src/shared/forms/model/formFiles';
import type { Answers } from '../../../src/shared/forms/model/schemaTypes';

/** A form asking two choices whose values are objects, as a schema folder `plans` holds it. */
export function objectChoiceForm(): FormSources {
  return {
    forms: {
      plans: {
        schema: {
          type: 'object',
          title: 'Plans',
          'x-messages': { type: 'Please check this answer', required: 'Please answer this' },
          required: ['plan'],
          properties: {
            plan: {
              type: 'object',
              title: 'Plan',
              enum: [{ tier: 'basic' }, { tier: 'full', support: true }],
              errorMessage: { enum: 'Choose a plan' },
            },
            region: {
              type: 'object',
              title: 'Region',
              oneOf: [
                { title: 'Americas', const: { code: 'AM' } },
                { title: 'Europe', const: { code: 'EU' } },
              ],
              errorMessage: { oneOf: 'Choose a region' },
            },
          },
        },
        uiSchema: { plan: { 'ui:enumNames': ['Basic', 'Full with support'] } },
        example: OBJECT_CHOICE_ANSWERS,
      },
    },
    commons: {},
  };
}

export const OBJECT_CHOICE_ANSWERS: Answers = {
  plan: { tier: 'full', support: true },
  region: { code: 'EU' },
};
