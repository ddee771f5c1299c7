import { describe, expect, it } from 'vitest';
import { sensitiveAnswerPointers } from '../../../src/server/fieldEncryption/registrationSealing';
import type { BundledForm } from '../../../src/shared/forms/model/bundleForm';
import { assembleForm } from '../../../src/shared/forms/model/compiledForm';
import { compileValidator } from '../../../src/shared/forms/model/compileNode';
import type { JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import { testForm } from '../../forms';

function formOf(schema: JsonSchema) {
  const bundled = { schema, uiSchema: {}, example: {}, hash: 'test' } as unknown as BundledForm;
  return assembleForm('sealing-test', bundled, compileValidator(schema));
}

describe('sensitive answers to seal (x-sensitive, as the form walker resolves the schema)', () => {
  it("finds the business example's dates of birth, SSN and passport number", () => {
    const form = testForm('business');
    expect(sensitiveAnswerPointers(form, form.example)).toEqual([
      '/affiliatedPersons/0/dob',
      '/affiliatedPersons/0/ssn',
      '/affiliatedPersons/1/dob',
      '/affiliatedPersons/1/passportNumber',
    ]);
  });

  it('follows references, combinator branches, pattern and additional properties and tuples', () => {
    const secret = { type: 'string', 'x-sensitive': true } as JsonSchema;
    const form = formOf({
      type: 'object',
      definitions: {
        secret,
        holder: { type: 'object', properties: { id: { $ref: '#/definitions/secret' } } },
      },
      properties: {
        name: { type: 'string' },
        kind: { type: 'string' },
        holder: { $ref: '#/definitions/holder' },
        codes: {
          type: 'object',
          patternProperties: { '^tin-': secret },
          additionalProperties: { type: 'string' },
        },
        pair: { type: 'array', items: [{ type: 'string' }, secret] },
      },
      oneOf: [
        { properties: { kind: { const: 'a' }, passport: secret } },
        { properties: { kind: { const: 'b' }, other: { type: 'string' } } },
      ],
    } as JsonSchema);
    const pointers = sensitiveAnswerPointers(form, {
      name: 'Ann',
      kind: 'a',
      passport: 'P1',
      holder: { id: 'H1' },
      codes: { 'tin-us': '123', note: 'plain' },
      pair: ['plain', 'S1'],
    });
    expect(pointers.sort()).toEqual(['/codes/tin-us', '/holder/id', '/pair/1', '/passport']);
  });
});
