/**
 * Rules across answers and no keyword ignored (issue 37 §1, §2): a commodity pool operator's
 * principals, each rule of §1 written in the schema (`x-rules`, JSON Logic; `contains` with
 * `minContains`/`maxContains`), valid and invalid, by the server's validator and the browser's
 * precompiled one alike; the message on the list, never on its items; every message kept; and
 * `forms check` refusing what the engine would not enforce, by name and place.
 */
import { describe, expect, it } from 'vitest';
import { browserForm } from '../../../src/shared/forms/check/checkBuild';
import { checkForms } from '../../../src/shared/forms/check/checkForms';
import type { CompiledForm } from '../../../src/shared/forms/model/compiledForm';
import type { Answers, JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import { toPayloadJson } from '../../../src/shared/forms/payload/payload';
import { evaluate } from '../../../src/shared/forms/validation/jsonLogic';
import { validateAnswers } from '../../../src/shared/forms/validation/validateAnswers';
import { testForm } from '../../forms';

const MESSAGES = { type: 'Please check this answer', required: 'Please answer this question' };

const OWNERSHIP_TOTAL = {
  reduce: [
    { filter: [{ var: 'principals' }, { '==': [{ var: 'isDirect' }, 'direct'] }] },
    { '+': [{ var: 'accumulator' }, { var: ['current.ownership', 0] }] },
    0,
  ],
};
const CONTROL_COUNT = {
  reduce: [
    { filter: [{ var: 'principals' }, { var: 'control' }] },
    { '+': [{ var: 'accumulator' }, 1] },
    0,
  ],
};

/** The pool operator of issue 37, every rule of §1 in its schema. */
const pool: JsonSchema = {
  type: 'object',
  'x-messages': MESSAGES,
  properties: {
    poolName: { type: 'string', title: 'Pool name' },
    principals: {
      type: 'array',
      title: 'Principals',
      minItems: 1,
      items: {
        type: 'object',
        title: 'Principal',
        properties: {
          firstName: { type: 'string', title: 'First name' },
          lastName: { type: 'string', title: 'Last name' },
          ownership: {
            type: 'integer',
            title: 'Ownership',
            minimum: 0,
            maximum: 100,
            errorMessage: { minimum: 'Ownership is 0 to 100', maximum: 'Ownership is 0 to 100' },
          },
          isDirect: {
            type: 'string',
            title: 'Direct or indirect',
            enum: ['direct', 'indirect'],
            errorMessage: 'Choose direct or indirect',
          },
          control: { type: 'boolean', title: 'Control person' },
          officer: { type: 'boolean', title: 'Officer' },
        },
        required: ['firstName'],
      },
      errorMessage: { minItems: 'Name at least one principal' },
    },
    signerName: { type: 'string', title: 'Who signs' },
  },
  required: ['principals'],
  'x-rules': [
    {
      at: '/principals',
      values: { total: OWNERSHIP_TOTAL },
      rule: { '<=': [{ var: 'total' }, 100] },
      message:
        'The direct ownership of the principals adds up to {total} %; it can be at most 100 %',
    },
    {
      at: '/principals',
      rule: {
        or: [
          { some: [{ var: 'principals' }, { '>=': [{ var: 'ownership' }, 25] }] },
          { some: [{ var: 'principals' }, { var: 'control' }] },
        ],
      },
      message: 'Name a principal who owns 25 % or more, or the control person',
    },
    {
      at: '/principals',
      values: { controls: CONTROL_COUNT },
      rule: { '==': [{ var: 'controls' }, 1] },
      message: 'Exactly one principal is the control person ({controls} are named)',
    },
    {
      at: '/signerName',
      rule: {
        or: [
          { '!': [{ var: 'signerName' }] },
          {
            in: [
              { var: 'signerName' },
              {
                map: [
                  { filter: [{ var: 'principals' }, { var: 'officer' }] },
                  { cat: [{ var: 'firstName' }, ' ', { var: 'lastName' }] },
                ],
              },
            ],
          },
        ],
      },
      message: 'The person who signs must be one of the officers listed',
    },
  ],
};

const ada = {
  firstName: 'Ada',
  lastName: 'Byron',
  ownership: 60,
  isDirect: 'direct',
  control: true,
  officer: true,
};
const ben = { firstName: 'Ben', lastName: 'Okafor', ownership: 20, isDirect: 'direct' };
const example: Answers = { poolName: 'Pool', principals: [ada, ben], signerName: 'Ada Byron' };

function compile(schema: JsonSchema, answers: Answers = example) {
  const { problems, forms } = checkForms({
    forms: { pool: { schema, uiSchema: {}, example: answers } },
    commons: {},
  });
  return { problems: problems.map((p) => `${p.pointer} ${p.message}`), form: forms.get('pool') };
}

function compiled(schema: JsonSchema = pool): CompiledForm {
  const { problems, form } = compile(schema);
  expect(problems).toEqual([]);
  return form!;
}

/** The messages the server's validator gives, checked equal to the browser's precompiled one's. */
function messages(form: CompiledForm, answers: Answers) {
  const server = validateAnswers(form, answers).errors;
  expect(validateAnswers(browserForm(form), answers).errors).toEqual(server);
  return server;
}

describe('rules across answers (x-rules), issue 37 §1', () => {
  const form = compiled();

  it('passes answers that keep every rule', () => {
    expect(messages(form, example)).toEqual([]);
  });

  it('direct ownership at most 100 %: refused at the list, naming the total; indirect not counted', () => {
    const over = { ...example, principals: [ada, { ...ben, ownership: 60 }] };
    expect(messages(form, over)).toEqual([
      {
        path: '/principals',
        message: 'The direct ownership of the principals adds up to 120 %; it can be at most 100 %',
      },
    ]);
    const indirect = {
      ...example,
      principals: [ada, { ...ben, ownership: 60, isDirect: 'indirect' }],
    };
    expect(messages(form, indirect)).toEqual([]);
    const exactly = { ...example, principals: [ada, { ...ben, ownership: 40 }] };
    expect(messages(form, exactly)).toEqual([]);
  });

  it('someone owns 25 % or a control person is named', () => {
    const small = { ...ada, ownership: 10, control: false };
    const none = { ...example, principals: [small, { ...ben, control: true, ownership: 5 }] };
    expect(messages(form, none)).toEqual([]);
    const neither = { ...example, principals: [small, ben] };
    expect(messages(form, neither).map((e) => e.message)).toContain(
      'Name a principal who owns 25 % or more, or the control person',
    );
  });

  it('exactly one control person, the count in the message', () => {
    const two = { ...example, principals: [ada, { ...ben, control: true }] };
    expect(messages(form, two)).toEqual([
      { path: '/principals', message: 'Exactly one principal is the control person (2 are named)' },
    ]);
  });

  it('the signer is one of the listed officers, said at the signer', () => {
    expect(messages(form, { ...example, signerName: 'Ben Okafor' })).toEqual([
      { path: '/signerName', message: 'The person who signs must be one of the officers listed' },
    ]);
  });

  it('keeps every message at the list, its own first, and never blames an item', () => {
    const errors = messages(form, { ...example, principals: [] });
    expect(errors).toEqual([
      { path: '/principals', message: 'Name at least one principal' },
      {
        path: '/principals',
        message: 'Name a principal who owns 25 % or more, or the control person',
      },
      { path: '/principals', message: 'Exactly one principal is the control person (0 are named)' },
      { path: '/signerName', message: 'The person who signs must be one of the officers listed' },
    ]);
  });

  it('a running total is a value a rule computes, as the message shows it', () => {
    expect(evaluate(OWNERSHIP_TOTAL, { principals: [ada, ben] })).toBe(80);
    expect(evaluate(OWNERSHIP_TOTAL, {})).toBe(0);
  });

  it('does not judge a total an answer of the wrong kind spoils (that answer has its message)', () => {
    const spoiled = { ...example, principals: [ada, { ...ben, ownership: 'lots' }] };
    expect(messages(form, spoiled).map((e) => e.path)).toEqual(['/principals/1/ownership']);
  });
});

describe('the business registration: direct ownership at most 100 %', () => {
  const business = testForm('business');
  const persons = (business.example.affiliatedPersons as Answers[]).map((person) => ({
    ...person,
  }));

  it('refuses 120 % at the list, accepts 100 %', () => {
    const at = (first: number) => ({
      ...business.example,
      affiliatedPersons: [
        { ...persons[0], ownershipPercent: first },
        { ...persons[1], isDirect: 'direct' },
      ],
    });
    expect(validateAnswers(business, at(60)).errors).toEqual([
      {
        path: '/affiliatedPersons',
        message:
          'The direct ownership of the persons listed adds up to 120 %; it can be at most 100 %',
      },
    ]);
    expect(validateAnswers(business, at(40)).errors).toEqual([]);
  });
});

describe('contains, minContains, maxContains enforced (issue 37 §2)', () => {
  const schema: JsonSchema = {
    ...pool,
    'x-rules': undefined,
    properties: {
      ...pool.properties,
      principals: {
        ...(pool.properties!.principals as JsonSchema),
        contains: {
          properties: { control: { const: true } },
          required: ['control'],
        },
        minContains: 1,
        maxContains: 1,
        errorMessage: {
          minItems: 'Name at least one principal',
          contains: 'Exactly one principal is the control person',
        },
      },
    },
  };
  delete schema['x-rules'];
  const form = compiled(schema);

  it('maxContains: two control persons are refused, at the list only', () => {
    const two = { ...example, principals: [ada, { ...ben, control: true }] };
    expect(messages(form, two)).toEqual([
      { path: '/principals', message: 'Exactly one principal is the control person' },
    ]);
  });

  it('contains: no control person is said at the list, not on each item', () => {
    const none = { ...example, principals: [{ ...ada, control: false }, ben] };
    expect(messages(form, none)).toEqual([
      { path: '/principals', message: 'Exactly one principal is the control person' },
    ]);
  });

  it('an empty list keeps both its messages', () => {
    expect(messages(form, { ...example, principals: [] })).toEqual([
      { path: '/principals', message: 'Name at least one principal' },
      { path: '/principals', message: 'Exactly one principal is the control person' },
    ]);
  });
});

describe('forms check refuses what the engine would not enforce (issue 37 §2)', () => {
  const principals = pool.properties!.principals as JsonSchema;
  const withList = (list: JsonSchema): JsonSchema => ({
    ...pool,
    properties: { ...pool.properties, principals: { ...principals, ...list } },
  });

  it('minContains without contains, named at its place', () => {
    expect(compile(withList({ minContains: 1 })).problems).toEqual([
      '/properties/principals/minContains minContains would be ignored: minContains counts the items that match "contains", and there is no "contains" beside it',
    ]);
  });

  it('maxContains inside a definition, and a list item, is named where it stands', () => {
    const nested = withList({
      items: {
        ...(principals.items as JsonSchema),
        properties: {
          ...(principals.items as JsonSchema).properties,
          roles: { type: 'array', title: 'Roles', items: { type: 'string' }, maxContains: 2 },
        },
      },
    });
    expect(compile(nested).problems).toEqual([
      '/properties/principals/items/properties/roles/maxContains maxContains would be ignored: maxContains counts the items that match "contains", and there is no "contains" beside it',
    ]);
  });

  it('annotation-only keywords and a keyword of another kind of answer', () => {
    const { problems } = compile({
      ...pool,
      properties: {
        ...pool.properties,
        poolName: { type: 'string', title: 'Pool name', maximum: 5, contentMediaType: 'text/html' },
      },
    });
    expect(problems).toEqual([
      '/properties/poolName/maximum maximum limits numbers, and this answer is string ("type"), so it would never refuse anything: remove it, or change "type"',
      expect.stringMatching(
        /^\/properties\/poolName\/contentMediaType contentMediaType is not enforced/,
      ),
    ]);
  });

  it('x-rules: an unknown operator, an answer the form does not ask, a value the message lacks, a place nowhere', () => {
    const { problems } = compile({
      ...pool,
      'x-rules': [
        { rule: { sum: [1] }, message: 'x' },
        { rule: { some: [{ var: 'principal' }, { var: 'control' }] }, message: 'x' },
        { rule: { some: [{ var: 'principals' }, { var: 'controll' }] }, message: '{total}' },
        { rule: true, message: 'x', at: '/signer' },
      ],
    });
    expect(problems).toEqual([
      expect.stringMatching(/^\/x-rules\/0\/rule unknown JSON Logic operator "sum"/),
      '/x-rules/1/rule {"var": "principal"} names no answer here (did you mean principals?)',
      '/x-rules/2/rule {"var": "controll"} names no answer here (did you mean control?)',
      "/x-rules/2/message the message names {total}, which is none of the rule's values",
      '/x-rules/3/at x-rules "at": /signer is no answer of the form where the rule stands',
    ]);
  });

  it('a root without "type" holding questions is an object of questions, as rjsf reads it; one without questions is refused', () => {
    const { type: _type, ...untyped } = pool;
    const form = compiled(untyped as JsonSchema);
    expect(form.schema.type).toBe('object');
    // Validate and payload read it (they exited 2 on it before, issue 37 §2).
    expect(messages(form, example)).toEqual([]);
    expect(toPayloadJson(form, example).parts.answers).toMatchObject({
      poolName: { prompt: 'Pool name', value: 'Pool' },
    });
    const { properties: _properties, ...nothingAsked } = untyped;
    expect(compile(nothingAsked as JsonSchema, {}).problems).toEqual([
      expect.stringMatching(/^ a form's root must be an object of questions/),
    ]);
  });
});
