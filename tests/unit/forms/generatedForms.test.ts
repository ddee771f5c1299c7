/**
 * Property-based (fast-check): forms generated from the constructs the walker supports (nesting,
 * allOf, oneOf/anyOf, if/then/else, dependencies, dependentRequired/dependentSchemas, additional
 * and pattern properties, lists, tuples, references to $defs and definitions), each
 * with answers that satisfy it. For every form: `forms check` accepts it (which builds the
 * browser's validator too); the answers are valid in the browser's validator and the server's,
 * with the same messages for them and for no answers; the payload decodes to exactly the answers;
 * every answer has a prompt in the payload and a row in the review. Unsupported constructs are
 * refused by check by name. On failure fast-check prints the seed and the shrunk form.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registrationReview } from '../../../src/server/admin/registrationView';
import { allRows } from '../../../src/shared/forms/review/reviewRows';
import { checkForms } from '../../../src/shared/forms/check/checkForms';
import { browserForm } from '../../../src/shared/forms/check/checkBuild';
import type { CompiledForm } from '../../../src/shared/forms/model/compiledForm';
import { fromPayload, toPayloadJson } from '../../../src/shared/forms/payload/payload';
import type { Answers, JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import { isPlainObject } from '../../../src/shared/forms/model/schemaTypes';
import { toPointer } from '../../../src/shared/forms/model/pointer';
import { validateAnswers } from '../../../src/shared/forms/validation/validateAnswers';
import { unaskedAnswers } from '../../../src/shared/forms/walk/answers';

/** Every keyword Ajv may report gets the form's default message (the check requires one). */
const X_MESSAGES = Object.fromEntries(
  [
    'type',
    'required',
    'oneOf',
    'anyOf',
    'const',
    'enum',
    'dependencies',
    'dependentRequired',
    'additionalProperties',
    'additionalItems',
    'propertyNames',
    'minItems',
  ].map((keyword) => [keyword, `Please check this answer (${keyword})`]),
);

type LeafType = 'string' | 'integer' | 'boolean' | 'enum' | 'titledChoice';
interface LeafPlan {
  type: LeafType;
  /** `$id`: a bundled definition, named by its `$id` and referred to by it (issue 25 §2.8). */
  where: 'inline' | '$defs' | 'definitions' | '$id';
  seed: number;
}

const leafPlan = fc.record({
  type: fc.constantFrom<LeafType>('string', 'integer', 'boolean', 'enum', 'titledChoice'),
  where: fc.constantFrom<LeafPlan['where']>('inline', 'inline', '$defs', 'definitions', '$id'),
  seed: fc.nat(999),
});

type Feature =
  | { k: 'leaf'; leaf: LeafPlan }
  | { k: 'object'; node: Feature[] }
  | { k: 'allOf'; a: LeafPlan; b: LeafPlan }
  | { k: 'choice'; options: LeafPlan[]; pick: number; anyOf: boolean; inline: boolean }
  | { k: 'optionalObject'; node: Feature[]; given: boolean }
  | { k: 'condition'; flag: boolean; then: LeafPlan; otherwise: LeafPlan }
  | {
      k: 'dependency';
      trigger: LeafPlan;
      dependent: LeafPlan;
      style: 'dependencies' | 'dependentSchemas';
    }
  | { k: 'dependentRequired'; a: LeafPlan; b: LeafPlan }
  | { k: 'additional'; keys: string[]; pattern: boolean; names: boolean; seed: number }
  | { k: 'list'; leaf: LeafPlan; count: number }
  | { k: 'records'; node: Feature[]; count: number }
  | { k: 'tuple'; items: LeafPlan[]; closed: boolean };

const { features } = fc.letrec<{ features: Feature[]; feature: Feature }>((tie) => ({
  features: fc.array(tie('feature'), { minLength: 1, maxLength: 4 }),
  feature: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'form' },
    fc.record({ k: fc.constant('leaf' as const), leaf: leafPlan }),
    fc.record({ k: fc.constant('object' as const), node: tie('features') }),
    fc.record({ k: fc.constant('allOf' as const), a: leafPlan, b: leafPlan }),
    fc.record({
      k: fc.constant('choice' as const),
      options: fc.array(leafPlan, { minLength: 2, maxLength: 3 }),
      pick: fc.nat(2),
      anyOf: fc.boolean(),
      // On the object itself (the form's root when at the top: issue 25 §2.3).
      inline: fc.boolean(),
    }),
    fc.record({
      k: fc.constant('optionalObject' as const),
      node: tie('features'),
      given: fc.boolean(),
    }),
    fc.record({
      k: fc.constant('condition' as const),
      flag: fc.boolean(),
      then: leafPlan,
      otherwise: leafPlan,
    }),
    fc.record({
      k: fc.constant('dependency' as const),
      trigger: leafPlan,
      dependent: leafPlan,
      style: fc.constantFrom('dependencies' as const, 'dependentSchemas' as const),
    }),
    fc.record({ k: fc.constant('dependentRequired' as const), a: leafPlan, b: leafPlan }),
    fc.record({
      k: fc.constant('additional' as const),
      keys: fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 3 }),
      pattern: fc.boolean(),
      // propertyNames as a choice of keys (issue 25 §2.7) rather than a pattern.
      names: fc.boolean(),
      seed: fc.nat(999),
    }),
    fc.record({ k: fc.constant('list' as const), leaf: leafPlan, count: fc.nat(3) }),
    fc.record({ k: fc.constant('records' as const), node: tie('features'), count: fc.nat(2) }),
    fc.record({
      k: fc.constant('tuple' as const),
      items: fc.array(leafPlan, { minLength: 1, maxLength: 3 }),
      closed: fc.boolean(),
    }),
  ),
}));

interface Built {
  schema: JsonSchema;
  answers: Answers;
  /** The uiSchema: list items styled (`items`, `additionalItems`: issue 25 §2.1). */
  ui: Record<string, unknown>;
}

/** Builds a form (schema and satisfying answers) from a plan; names are unique per form. */
class FormBuilder {
  private count = 0;
  readonly $defs: Record<string, JsonSchema> = {};
  readonly definitions: Record<string, JsonSchema> = {};

  name(prefix: string): string {
    return `${prefix}${++this.count}`;
  }

  /** A leaf question and an answer it accepts. */
  leaf(plan: LeafPlan): { schema: JsonSchema; value: unknown } {
    const title = `Question ${this.count + 1}`;
    const schemas: Record<LeafType, [JsonSchema, unknown]> = {
      string: [
        { type: 'string', title, minLength: 1, errorMessage: { minLength: 'Say something' } },
        `answer ${plan.seed}`,
      ],
      integer: [
        { type: 'integer', title, minimum: 0, errorMessage: { minimum: 'Not below zero' } },
        plan.seed,
      ],
      boolean: [{ type: 'boolean', title }, plan.seed % 2 === 0],
      enum: [
        { type: 'string', title, enum: ['red', 'green', 'blue'], errorMessage: 'Pick a colour' },
        ['red', 'green', 'blue'][plan.seed % 3],
      ],
      // Options with titles under anyOf (issue 25 §2.6: the title is sent, in lists too).
      titledChoice: [
        {
          type: 'string',
          title,
          anyOf: [
            { const: '#ff0000', title: 'Red' },
            { const: '#00ff00', title: 'Green' },
          ],
        },
        plan.seed % 2 === 0 ? '#ff0000' : '#00ff00',
      ],
    };
    const [schema, value] = schemas[plan.type];
    if (plan.where === 'inline') return { schema, value };
    const name = this.name('def');
    if (plan.where === '$id') {
      const id = `https://forms.example/defs/${name}`;
      this.$defs[id] = { $id: id, ...schema };
      return { schema: { $ref: id }, value };
    }
    (plan.where === '$defs' ? this.$defs : this.definitions)[name] = schema;
    return { schema: { $ref: `#/${plan.where}/${name}` }, value };
  }

  /** An object built from features: its schema and answers. */
  object(plan: Feature[], title: string): Built {
    const schema: JsonSchema & { properties: Record<string, JsonSchema>; required: string[] } = {
      type: 'object',
      title,
      properties: {},
      required: [],
    };
    const answers: Answers = {};
    const ui: Record<string, unknown> = {};
    for (const feature of plan) this.feature(feature, schema, answers, ui);
    if (schema.required.length === 0) delete (schema as JsonSchema).required;
    return { schema, answers, ui };
  }

  private feature(
    feature: Feature,
    schema: JsonSchema & { properties: Record<string, JsonSchema>; required: string[] },
    answers: Answers,
    ui: Record<string, unknown>,
  ): void {
    const own = (key: string, leaf: { schema: JsonSchema; value: unknown }) => {
      schema.properties[key] = leaf.schema;
      answers[key] = leaf.value;
    };
    switch (feature.k) {
      case 'leaf':
        own(this.name('q'), this.leaf(feature.leaf));
        break;
      case 'object': {
        const key = this.name('group');
        const built = this.object(feature.node, `Group ${key}`);
        schema.properties[key] = built.schema;
        ui[key] = built.ui;
        answers[key] = built.answers;
        break;
      }
      case 'allOf': {
        const parts = [feature.a, feature.b].map((plan) => {
          const key = this.name('part');
          const leaf = this.leaf(plan);
          answers[key] = leaf.value;
          return { properties: { [key]: leaf.schema }, required: [key] };
        });
        (schema.allOf ??= []).push(...parts);
        break;
      }
      case 'choice': {
        // In an object of its own, beside a question of its own: two choices at one level
        // would make one answer satisfy two option lists at once.
        const kind = this.name('kind');
        const pick = feature.pick % feature.options.length;
        const group: Answers = { [kind]: `o${pick}` };
        const options = feature.options.map((plan, index) => {
          const key = this.name('branch');
          const leaf = this.leaf(plan);
          if (index === pick) group[key] = leaf.value;
          return {
            title: `Option ${index + 1}`,
            properties: { [kind]: { title: 'Which', const: `o${index}` }, [key]: leaf.schema },
            required: [kind, key],
          };
        });
        const combinator = feature.anyOf ? 'anyOf' : 'oneOf';
        if (feature.inline && !schema.oneOf && !schema.anyOf) {
          schema[combinator] = options;
          Object.assign(answers, group);
          break;
        }
        const key = this.name('choice');
        schema.properties[key] = { type: 'object', title: 'Choose', [combinator]: options };
        answers[key] = group;
        break;
      }
      case 'optionalObject': {
        // Not required: left out, it stays out and its own required questions do not apply.
        const key = this.name('optional');
        const built = this.object(feature.node, `Optional ${key}`);
        const inner = this.name('inner');
        built.schema.properties = {
          ...built.schema.properties,
          [inner]: { type: 'string', title: 'Inner' },
        };
        built.schema.required = [...(built.schema.required ?? []), inner];
        schema.properties[key] = built.schema;
        // The page's add and remove buttons for it (rjsf's optional data controls).
        ui[key] = { ...built.ui, 'ui:enableOptionalDataFieldForType': ['object'] };
        if (feature.given) answers[key] = { ...built.answers, [inner]: 'given' };
        break;
      }
      case 'condition': {
        const flag = this.name('flag');
        schema.properties[flag] = { type: 'boolean', title: 'Does it apply?' };
        answers[flag] = feature.flag;
        const [thenKey, elseKey] = [this.name('then'), this.name('else')];
        const [thenLeaf, elseLeaf] = [this.leaf(feature.then), this.leaf(feature.otherwise)];
        (schema.allOf ??= []).push({
          if: { properties: { [flag]: { const: true } }, required: [flag] },
          then: { properties: { [thenKey]: thenLeaf.schema }, required: [thenKey] },
          else: { properties: { [elseKey]: elseLeaf.schema }, required: [elseKey] },
        });
        if (feature.flag) answers[thenKey] = thenLeaf.value;
        else answers[elseKey] = elseLeaf.value;
        break;
      }
      case 'dependency': {
        const trigger = this.name('trigger');
        own(trigger, this.leaf(feature.trigger));
        const dependent = this.name('dependent');
        const leaf = this.leaf(feature.dependent);
        const part = { properties: { [dependent]: leaf.schema }, required: [dependent] };
        const map = (schema[feature.style] ??= {}) as Record<string, JsonSchema>;
        map[trigger] = part;
        answers[dependent] = leaf.value;
        break;
      }
      case 'dependentRequired': {
        const [a, b] = [this.name('a'), this.name('b')];
        own(a, this.leaf(feature.a));
        own(b, this.leaf(feature.b));
        ((schema.dependentRequired ??= {}) as Record<string, string[]>)[a] = [b];
        break;
      }
      case 'additional': {
        // In an object of its own: additional answers sit beside no other questions.
        const key = this.name('other');
        const bag: JsonSchema = { type: 'object', title: 'Other answers' };
        const value: Answers = {};
        if (feature.pattern) {
          bag.patternProperties = {
            '^p_': { type: 'string', title: 'Note' },
            '^p_x': { type: 'string', title: 'Extra note' },
          };
          bag.additionalProperties = false;
          for (const name of feature.keys) value[`p_${name}`] = `note ${feature.seed}`;
        } else if (feature.names) {
          const names = ['alpha', 'beta', 'gamma', ...feature.keys.map((name) => `k${name}`)];
          bag.additionalProperties = { type: 'integer', title: 'Amount' };
          bag.propertyNames = { enum: names, errorMessage: 'Choose a name' };
          for (const name of names.slice(0, feature.seed % 4)) value[name] = feature.seed;
        } else {
          bag.additionalProperties = { type: 'integer', title: 'Amount' };
          bag.propertyNames = { pattern: '^[a-z]+$', errorMessage: 'Lower-case letters only' };
          for (const name of feature.keys) value[name] = feature.seed;
        }
        schema.properties[key] = bag;
        answers[key] = value;
        break;
      }
      case 'list': {
        const key = this.name('list');
        const leaf = this.leaf(feature.leaf);
        schema.properties[key] = { type: 'array', title: `List ${key}`, items: leaf.schema };
        answers[key] = Array.from({ length: feature.count }, () => leaf.value);
        ui[key] = { items: { 'ui:description': 'One of the list' } };
        break;
      }
      case 'records': {
        const key = this.name('records');
        const built = this.object(feature.node, 'Record');
        schema.properties[key] = { type: 'array', title: `Records ${key}`, items: built.schema };
        ui[key] = { items: built.ui };
        answers[key] = Array.from({ length: feature.count }, () => structuredClone(built.answers));
        break;
      }
      case 'tuple': {
        const key = this.name('tuple');
        const leaves = feature.items.map((plan) => this.leaf(plan));
        schema.properties[key] = {
          type: 'array',
          title: `Tuple ${key}`,
          items: leaves.map((leaf) => leaf.schema),
          ...(feature.closed ? { additionalItems: false } : {}),
        };
        answers[key] = leaves.map((leaf) => leaf.value);
        ui[key] = {
          items: leaves.map(() => ({ 'ui:description': 'An item of the tuple' })),
          ...(feature.closed ? {} : { additionalItems: { 'ui:description': 'Later items' } }),
        };
        break;
      }
    }
  }
}

function buildForm(plan: Feature[]): Built {
  const builder = new FormBuilder();
  const { schema, answers, ui } = builder.object(plan, 'Generated form');
  schema['x-messages'] = X_MESSAGES;
  if (Object.keys(builder.$defs).length) schema.$defs = builder.$defs;
  if (Object.keys(builder.definitions).length) schema.definitions = builder.definitions;
  return { schema, answers, ui };
}

function compiled(built: Built): { form: CompiledForm | undefined; problems: string[] } {
  const { forms, problems } = checkForms({
    forms: { generated: { schema: built.schema, uiSchema: built.ui, example: built.answers } },
    commons: {},
  });
  return {
    form: forms.get('generated'),
    problems: problems.map((p) => `${p.file} ${p.pointer}: ${p.message}`),
  };
}

/** The pointers of the answers a payload carries one by one (list of values: the list). */
function answeredPointers(form: CompiledForm, answers: unknown, keys: string[] = []): string[] {
  if (isPlainObject(answers)) {
    return Object.entries(answers).flatMap(([key, value]) =>
      answeredPointers(form, value, [...keys, key]),
    );
  }
  if (
    Array.isArray(answers) &&
    answers.length > 0 &&
    (isPlainObject(answers[0]) || Array.isArray(answers[0]))
  ) {
    return answers.flatMap((item, index) => answeredPointers(form, item, [...keys, String(index)]));
  }
  return [toPointer(keys)];
}

// Each run draws a new seed, so CI's runs add up to far more forms than one run's 500 (30 s for
// 1,000 on 2 cores; GENERATED_FORMS=5000 for a long local hunt).
const RUNS = Number(process.env.GENERATED_FORMS ?? 500);

describe('generated forms (fast-check)', () => {
  it(`every form the walker supports is checked, validated alike, sent and reviewed whole (${RUNS} forms)`, () => {
    fc.assert(
      fc.property(features, (plan) => {
        const built = buildForm(plan);
        const { form, problems } = compiled(built);
        expect(problems).toEqual([]);
        const server = form!;
        const browser = browserForm(server);
        // Valid alike, and the same messages for no answers at all.
        expect(validateAnswers(server, built.answers)).toEqual({ valid: true, errors: [] });
        expect(validateAnswers(browser, built.answers)).toEqual({ valid: true, errors: [] });
        expect(validateAnswers(browser, {})).toEqual(validateAnswers(server, {}));
        // Every answer is one the form asks; a key no question asks is named (issue 25 §2.10).
        expect(unaskedAnswers(server, built.answers)).toEqual([]);
        expect(unaskedAnswers(server, { ...built.answers, zzUnasked: 1 })).toEqual(['/zzUnasked']);
        // Sent whole: the payload decodes to exactly the answers, each with its prompt.
        const payload = toPayloadJson(server, built.answers);
        const fields = Object.fromEntries(
          Object.entries(payload.parts).map(([name, part]) => [name, JSON.stringify(part)]),
        );
        const decoded = fromPayload(server, { ...fields, schemaHash: payload.schemaHash });
        expect(decoded.answers).toEqual(built.answers);
        // The staff console's review (the applicant's draws the same rows): a prompt per answer.
        const review = new Map(
          allRows(registrationReview(server, payload.parts).sections).map((row) => [
            row.pointer,
            row.prompt,
          ]),
        );
        for (const pointer of answeredPointers(server, built.answers)) {
          expect(decoded.prompts[pointer], `payload prompt of ${pointer}`).toBeTruthy();
          expect(review.get(pointer), `review prompt of ${pointer}`).toBeTruthy();
        }
      }),
      { numRuns: RUNS },
    );
  }, 600_000);

  const UNSUPPORTED: { name: string; edit: (schema: JsonSchema) => void }[] = [
    {
      name: "a form's root must be an object of questions",
      edit: (schema) => void (schema.type = 'array'),
    },
    {
      name: 'format data-url',
      edit: (schema) => {
        (schema.properties as Record<string, JsonSchema>).scan = {
          type: 'string',
          title: 'Scan',
          format: 'data-url',
        };
      },
    },
    {
      name: 'additional answers need a title',
      edit: (schema) => {
        (schema.properties as Record<string, JsonSchema>).extras = {
          type: 'object',
          title: 'Extras',
          additionalProperties: { type: 'string' },
        };
      },
    },
    {
      name: 'did you mean',
      edit: (schema) => {
        schema.$defs = { ...(schema.$defs ?? {}), colour: { type: 'string', title: 'Colour' } };
        (schema.properties as Record<string, JsonSchema>).paint = { $ref: '#/$defs/color' };
      },
    },
    {
      name: 'prefixItems',
      edit: (schema) => {
        (schema.properties as Record<string, JsonSchema>).pair = {
          type: 'array',
          title: 'Pair',
          prefixItems: [{ type: 'string', title: 'First' }],
        };
      },
    },
    {
      name: 'unevaluatedProperties',
      edit: (schema) => void (schema.unevaluatedProperties = false),
    },
    { name: 'additionalProperties', edit: (schema) => void (schema.additionalProperties = true) },
    {
      // A form that holds itself (a tree of children) would be expanded without end.
      name: 'leads back into the schema that holds it',
      edit: (schema) => {
        schema.$defs = {
          ...(schema.$defs ?? {}),
          node: {
            type: 'object',
            title: 'Node',
            properties: {
              label: { type: 'string', title: 'Label' },
              children: { type: 'array', title: 'Children', items: { $ref: '#/$defs/node' } },
            },
          },
        };
        (schema.properties as Record<string, JsonSchema>).tree = { $ref: '#/$defs/node' };
      },
    },
    {
      // The same through a property of its own (a person whose mother is a person).
      name: 'leads back into the schema that holds it',
      edit: (schema) => {
        const properties = schema.properties as Record<string, JsonSchema>;
        properties.person = {
          type: 'object',
          title: 'Person',
          properties: {
            name: { type: 'string', title: 'Name' },
            mother: { $ref: '#/properties/person' },
          },
        };
      },
    },
    {
      name: 'points outside the form',
      edit: (schema) => {
        (schema.properties as Record<string, JsonSchema>).far = {
          $ref: 'https://example.com/schemas/person.json',
        };
      },
    },
  ];

  it('refuses each unsupported construct by name, and checks the other forms regardless', () => {
    fc.assert(
      fc.property(features, fc.constantFrom(...UNSUPPORTED), (plan, construct) => {
        const built = buildForm(plan);
        construct.edit(built.schema);
        const sane = buildForm([{ k: 'leaf', leaf: { type: 'string', where: 'inline', seed: 1 } }]);
        const { problems, forms } = checkForms({
          forms: {
            broken: { schema: built.schema, uiSchema: {}, example: built.answers },
            sane: { schema: sane.schema, uiSchema: {}, example: sane.answers },
          },
          commons: {},
        });
        const broken = problems.filter((p) => p.file === 'schemas/broken/broken.schema.json');
        expect(broken.map((p) => p.message).join('\n')).toContain(construct.name);
        // No Ajv words: every sentence says what to write instead.
        // (The issue's own words for a root say "must": "a form's root must be an object".)
        for (const problem of broken) {
          expect(problem.message).not.toMatch(/strict mode|(?<!root )must /);
        }
        expect(problems.filter((p) => p.file.startsWith('schemas/sane/'))).toEqual([]);
        expect(forms.has('sane')).toBe(true);
      }),
      { numRuns: Math.max(50, Math.round(RUNS / 10)) },
    );
  }, 600_000);
});
