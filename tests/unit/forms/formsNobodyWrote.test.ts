/**
 * Forms nobody here wrote (issue 25 §2, the rjsf playground's constructs), checked, validated and
 * sent as the CLI and the server do: each form a small folder of its own, compiled by the engine.
 * The messages that point to the place (§3) are checked here too.
 */
import { describe, expect, it } from 'vitest';
import { checkForms, type Fixture } from '../../../src/shared/forms/check/checkForms';
import type { CompiledForm } from '../../../src/shared/forms/model/compiledForm';
import type { FormSources } from '../../../src/shared/forms/model/formFiles';
import { parse } from '../../../src/shared/forms/model/formFiles';
import { optionTitle } from '../../../src/shared/forms/model/optionTitle';
import type { Answers, JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import { fromPayload, toPayloadJson } from '../../../src/shared/forms/payload/payload';
import { validateAnswers } from '../../../src/shared/forms/validation/validateAnswers';
import { unaskedAnswers } from '../../../src/shared/forms/walk/answers';

const MESSAGES = {
  type: 'Please check this answer',
  required: 'Please answer this question',
  oneOf: 'Choose one',
  anyOf: 'Choose one',
  enum: 'Choose one of the options',
  format: 'Please check this answer',
  additionalProperties: 'Not asked',
  propertyNames: 'Not a name this form takes',
  pattern: 'Please check this answer',
};

function sources(
  schema: JsonSchema,
  example: Answers,
  uiSchema: Record<string, unknown> = {},
): FormSources {
  return {
    forms: { sample: { schema: { 'x-messages': MESSAGES, ...schema }, uiSchema, example } },
    commons: {},
  };
}

function check(
  schema: JsonSchema,
  example: Answers,
  uiSchema: Record<string, unknown> = {},
  fixtures: Fixture[] = [],
) {
  const { problems, forms } = checkForms(sources(schema, example, uiSchema), fixtures);
  return { problems: problems.map((p) => `${p.pointer} ${p.message}`), form: forms.get('sample') };
}

function accepted(schema: JsonSchema, example: Answers, uiSchema = {}): CompiledForm {
  const { problems, form } = check(schema, example, uiSchema);
  expect(problems).toEqual([]);
  return form!;
}

const person: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    address: {
      type: 'object',
      title: 'Address',
      properties: { city: { type: 'string', title: 'City' } },
    },
    children: {
      type: 'array',
      title: 'Children',
      items: {
        type: 'object',
        title: 'Child',
        properties: { first: { type: 'string', title: 'First' } },
      },
    },
  },
};

describe('forms nobody here wrote (issue 25 §2)', () => {
  it('1: uiSchema items and additionalItems are accepted, and what they hold is checked', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        colours: { type: 'array', title: 'Colours', items: { type: 'string', title: 'Colour' } },
        pair: {
          type: 'array',
          title: 'Pair',
          items: [{ type: 'string', title: 'First' }],
          additionalItems: { type: 'integer', title: 'More' },
        },
        people: {
          type: 'array',
          title: 'People',
          items: {
            type: 'object',
            title: 'Person',
            properties: { name: { type: 'string', title: 'Name' } },
          },
        },
      },
    };
    const example = { colours: ['red'], pair: ['a', 2], people: [{ name: 'Ann' }] };
    accepted(schema, example, {
      colours: { items: { 'ui:widget': 'textarea' } },
      pair: { items: [{ 'ui:widget': 'textarea' }], additionalItems: { 'ui:widget': 'updown' } },
      people: { items: { name: { 'ui:widget': 'textarea' } } },
    });
    const { problems } = check(schema, example, {
      colours: { items: { 'ui:widget': 'sparkles' } },
      people: { items: { nickname: {} } },
    });
    expect(problems).toEqual([
      '/colours/items/ui:widget unknown widget "sparkles"',
      '/people/items/nickname no property nickname in the schema',
    ]);
    // rjsf's registry names (the playground's enumerated objects write 'RadioWidget') are read as
    // the uiSchema's names; a typo is said with the name meant.
    const named = check(schema, example, {
      colours: { items: { 'ui:widget': 'TextareaWidget' } },
      people: { items: { name: { 'ui:widget': 'textaera' } } },
    });
    expect(named.problems).toEqual([
      '/people/items/name/ui:widget unknown widget "textaera": did you mean "textarea"?',
    ]);
    const read = accepted(schema, example, {
      colours: { items: { 'ui:widget': 'TextareaWidget' } },
    });
    expect(read.uiSchema).toMatchObject({ colours: { items: { 'ui:widget': 'textarea' } } });
  });

  it('2: an optional object left out stays out; once given, its own questions are required', () => {
    const form = accepted(
      {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', title: 'Name' },
          employer: {
            type: 'object',
            title: 'Employer',
            required: ['company'],
            properties: { company: { type: 'string', title: 'Company' } },
          },
        },
      },
      { name: 'Ann' },
    );
    expect(validateAnswers(form, { name: 'Ann' })).toEqual({ valid: true, errors: [] });
    expect(validateAnswers(form, { name: 'Ann', employer: {} }).errors).toEqual([
      { path: '/employer/company', message: 'Please answer this question' },
    ]);
    const payload = toPayloadJson(form, { name: 'Ann' });
    expect(JSON.stringify(payload.parts)).not.toContain('employer');
  });

  it('3: oneOf and anyOf at the root are checked, validated and sent', () => {
    for (const keyword of ['oneOf', 'anyOf']) {
      const form = accepted(
        {
          type: 'object',
          properties: { age: { type: 'integer', title: 'Age' } },
          [keyword]: [
            {
              title: 'By name',
              properties: { firstName: { type: 'string', title: 'First name' } },
              required: ['firstName'],
            },
            {
              title: 'By code',
              properties: { idCode: { type: 'string', title: 'ID code' } },
              required: ['idCode'],
            },
          ],
        },
        { idCode: 'X1' },
      );
      expect(validateAnswers(form, { idCode: 'X1' }).valid).toBe(true);
      const payload = toPayloadJson(form, { idCode: 'X1', age: 3 });
      const fields = Object.fromEntries(
        Object.entries(payload.parts).map(([name, part]) => [name, JSON.stringify(part)]),
      );
      expect(fromPayload(form, { ...fields, schemaHash: payload.schemaHash }).answers).toEqual({
        idCode: 'X1',
        age: 3,
      });
    }
  });

  it('4, 7: a key a pattern or propertyNames refuses is named at its row, not at the object', () => {
    const form = accepted(
      {
        type: 'object',
        properties: {
          tags: {
            type: 'object',
            title: 'Tags',
            patternProperties: { '^x-[a-z]+$': { type: 'string', title: 'Extra tag' } },
            additionalProperties: false,
          },
          colours: {
            type: 'object',
            title: 'Colours',
            propertyNames: { enum: ['red', 'green'] },
            additionalProperties: { type: 'string', title: 'Shade' },
          },
        },
      },
      { tags: { 'x-a': 'b' }, colours: { red: 'dark' } },
    );
    const { errors } = validateAnswers(form, {
      tags: { 'x-a': 'b', 'Bad/Key': 'c' },
      colours: { blue: 'x' },
    });
    expect(errors.map((e) => [e.path, e.message])).toEqual(
      expect.arrayContaining([
        ['/tags/Bad~1Key', 'Not asked'],
        ['/colours/blue', 'Choose one of the options'],
      ]),
    );
    expect(errors.filter((e) => e.path === '/tags' || e.path === '/colours')).toEqual([]);
  });

  it("a project keyword's value is checked in every form, not only the first compiled", () => {
    const withFile = (value: string): JsonSchema => ({
      type: 'object',
      properties: { scan: { type: 'string', title: 'Scan', 'x-file': value as 'pdf' } },
    });
    for (let round = 0; round < 2; round++) {
      expect(check(withFile('doc'), {}).problems.join('\n')).toContain(
        '/properties/scan/x-file x-file is one of "image", "pdf", "image-or-pdf"',
      );
    }
  });

  it('5: format data-url is refused by check, saying what to write', () => {
    const { problems } = check(
      {
        type: 'object',
        properties: { resume: { type: 'string', title: 'Resume', format: 'data-url' } },
      },
      {},
    );
    expect(problems).toContainEqual(
      expect.stringMatching(
        /^\/properties\/resume\/format a file inside the answers \(format data-url\) is not supported: .*"\$ref": "\.\.\/common\/file\.schema\.json#\/\$defs\/pdfFile"/,
      ),
    );
  });

  it('6: an option title is sent when the choice sits inside anyOf/$ref in a list', () => {
    const form = accepted(
      {
        type: 'object',
        $defs: {
          colour: {
            type: 'string',
            title: 'Colour',
            anyOf: [
              { const: '#ff0000', title: 'Red' },
              { const: '#00ff00', title: 'Green' },
            ],
          },
        },
        properties: {
          colours: {
            type: 'array',
            title: 'Colours',
            uniqueItems: true,
            items: { $ref: '#/$defs/colour' },
            errorMessage: { uniqueItems: 'Each colour once' },
          },
          favourite: { $ref: '#/$defs/colour' },
          size: { type: 'string', title: 'Size', enum: ['s', 'l'] },
        },
      },
      { colours: ['#00ff00'], favourite: '#ff0000', size: 'l' },
      { size: { 'ui:enumNames': ['Small', 'Large'] } },
    );
    const parts = toPayloadJson(form, {
      colours: ['#00ff00', '#ff0000'],
      favourite: '#00ff00',
      size: 'l',
    }).parts;
    const answers = parts.answers as Record<string, { label?: string }>;
    expect(answers.colours!.label).toBe('Green, Red');
    expect(answers.favourite!.label).toBe('Green');
    expect(answers.size!.label).toBe('Large');
  });

  it('the option title is written once: oneOf and anyOf, deep equality, ui:enumNames', () => {
    const root: JsonSchema = { $defs: { eu: { const: { code: 'EU' }, title: 'Europe' } } };
    expect(optionTitle({ anyOf: [{ $ref: '#/$defs/eu' }] }, { code: 'EU' }, undefined, root)).toBe(
      'Europe',
    );
    expect(optionTitle({ oneOf: [{ const: 1, title: 'One' }] }, 1)).toBe('One');
    expect(optionTitle({ enum: ['a', 'b'] }, 'b', { 'ui:enumNames': ['A', 'B'] })).toBe('B');
    expect(optionTitle({ enum: ['a'] }, 'b')).toBeUndefined();
  });

  it('8: bundled schemas ($id definitions, $ref to those ids) resolve as Ajv resolves them', () => {
    const form = accepted(
      {
        $id: 'https://example.com/schemas/forms/bundle',
        type: 'object',
        $defs: {
          'https://example.com/schemas/mixins/count': {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            $id: 'https://example.com/schemas/mixins/count',
            type: 'integer',
            title: 'Count',
            minimum: 0,
            errorMessage: { minimum: 'Not below zero' },
          },
          relative: { $id: 'relative-name', type: 'string', title: 'Name' },
        },
        properties: {
          count: { $ref: '/schemas/mixins/count' },
          name: { $ref: 'relative-name' },
        },
      },
      { count: 2, name: 'Ann' },
    );
    expect(validateAnswers(form, { count: -1, name: 'Ann' }).errors).toEqual([
      { path: '/count', message: 'Not below zero' },
    ]);
    const parts = toPayloadJson(form, { count: 2, name: 'Ann' }).parts;
    expect(parts.answers).toMatchObject({
      count: { prompt: 'Count', value: 2 },
      name: { prompt: 'Name' },
    });
  });

  it('9: a root that is not an object is refused in plain words', () => {
    for (const schema of [
      { type: 'string', title: 'Name' },
      { type: 'array', title: 'Names', items: { type: 'string', title: 'Name' } },
      { title: 'Pick', enum: ['a', 'b'] },
    ] as JsonSchema[]) {
      const { problems } = check(schema, {});
      expect(problems).toEqual([
        expect.stringMatching(/^(\/type)? a form's root must be an object of questions/),
      ]);
    }
  });

  it('10: answers no question asks are named, in the example and in fixtures', () => {
    const { problems } = check(person, { name: 'Ann', age: 3, bio: 'x' }, {}, [
      {
        file: 'tests/fixtures/forms/sample/typo.json',
        content: { patch: [{ op: 'add', path: '/nmae', value: 'Bo' }], expectedErrors: [] },
      },
    ]);
    expect(problems).toContain('/age not asked by this form: /age');
    expect(problems).toContain('/bio not asked by this form: /bio');
    // The fixture's own stray answer at the patch operation adding it; the example's said there.
    expect(problems).toContain('/patch/0/path not asked by this form: /nmae');
    expect(problems).not.toContain('/patch/0/path not asked by this form: /age');
    const form = accepted(person, { name: 'Ann' });
    expect(
      unaskedAnswers(form, {
        address: { city: 'X', zip: '1' },
        children: [{ first: 'A', last: 'B' }],
      }),
    ).toEqual(['/address/zip', '/children/0/last']);
  });

  it('11: additionalProperties without a title is refused by check', () => {
    const { problems } = check(
      {
        type: 'object',
        properties: {
          extras: { type: 'object', title: 'Extras', additionalProperties: { type: 'string' } },
        },
      },
      {},
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^\/properties\/extras\/additionalProperties additional answers need a title/,
      ),
    ]);
  });
});

describe('messages that point to the place (issue 25 §3)', () => {
  it('a JSON syntax error is said by line and column', () => {
    const problems: { file: string; pointer: string; message: string }[] = [];
    parse({ read: () => '{\n  "a": 1,\n  "b": }\n', list: () => [] }, 'x.json', problems);
    expect(problems[0]!.message).toMatch(/^not valid JSON at line 3, column \d+: /);
    expect(problems[0]!.message).not.toContain('position');
  });

  it('a $ref typo is named at its pointer with the nearest definition', () => {
    const { problems } = check(
      {
        type: 'object',
        $defs: {
          address: { type: 'string', title: 'Address' },
          phone: { type: 'string', title: 'Phone' },
        },
        properties: { home: { $ref: '#/$defs/adress' } },
      },
      {},
    );
    expect(problems).toEqual([
      '/properties/home/$ref the reference #/$defs/adress points to no definition of the form (did you mean #/$defs/address?)',
    ]);
  });

  it('a broken form is said once: its fixtures are not each "no form"', () => {
    const fixtures = ['a', 'b', 'c'].map((name) => ({
      file: `tests/fixtures/forms/sample/${name}.json`,
      content: { answers: {}, expectedErrors: [] },
    }));
    const { problems } = check(
      { type: 'object', properties: { home: { $ref: '#/$defs/nowhere' } } },
      {},
      {},
      fixtures,
    );
    expect(problems).toHaveLength(2);
    expect(problems[1]).toBe(' 3 fixtures not checked until the sample form loads');
    expect(problems.join('\n')).not.toContain('no form');
  });

  it('a fixture that fails is a diff of missing and unexpected messages', () => {
    const { problems } = check(person, {}, {}, [
      {
        file: 'tests/fixtures/forms/sample/diff.json',
        content: {
          answers: { name: 3 },
          expectedErrors: [{ path: '/address/city', message: 'Please answer this question' }],
        },
      },
    ]);
    expect(problems).toEqual([
      '/expectedErrors the answers give other messages than expected:\n' +
        '- expected, not given: /address/city: Please answer this question\n' +
        '+ given, not expected: /name: Please check this answer',
    ]);
  });

  it('many properties missing the same message: one line suggesting the root x-messages', () => {
    const properties = Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e'].map((key) => [
        key,
        { type: 'string', title: key.toUpperCase(), maxLength: 5 },
      ]),
    );
    const { problems } = check({ type: 'object', properties }, {});
    expect(problems).toEqual([
      '/x-messages no errorMessage for maxLength at 5 places (/properties/a/maxLength, /properties/b/maxLength, /properties/c/maxLength and 2 more): give the form one in x-messages at its root ("x-messages": { "maxLength": "…" }), or one at each',
    ]);
  });
});
