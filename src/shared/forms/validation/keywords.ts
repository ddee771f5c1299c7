/**
 * The project's `x-…` schema keywords, registered with every Ajv instance (one configuration,
 * see ajvConfig.ts).
 *
 * - Rule keywords (`x-phone`, `x-ssn`, `x-date`, `x-name`, `x-lei`): validation by a pure rule of
 *   src/shared/rules. The keyword's value maps every failure reason of the rule to its message,
 *   so the wording stays in schemas/ (`"x-phone": {"international": "Must enter …", …}`).
 *   They generate code (not closures), so Ajv standalone code carries them: the generated code
 *   requires the rule adapters by module id, which the Vite plugin resolves.
 * - Annotation keywords: serializer and tooling hints that never fail validation.
 */
import type { Ajv, ErrorObject, KeywordCxt, KeywordDefinition } from 'ajv';
import { _, type Name } from 'ajv/dist/compile/codegen/index.js';
import { DATE_PROBLEMS } from '../../rules/date';
import { LEI_PROBLEMS } from '../../rules/lei';
import { NAME_PROBLEMS } from '../../rules/names';
import { PHONE_PROBLEMS } from '../../rules/phone';
import { SSN_PROBLEMS } from '../../rules/ssn';
import { answerRuleProblems } from './answerRules';
import { ruleAdapters, RULES_MODULE_ID, type RuleName } from './ruleAdapters';

/** The reasons each rule keyword can fail for; every one needs a message unless optional. */
export const RULE_KEYWORDS: Record<
  `x-${RuleName}`,
  {
    rule: RuleName;
    reasons: readonly string[];
    optional?: readonly string[];
    /** Further wording the field's widget shows (not failure reasons), each optional. */
    hints?: readonly string[];
  }
> = {
  // `suggestion`: the one-click fix offered for a national number ('Did you mean {number}?').
  'x-phone': { rule: 'phone', reasons: PHONE_PROBLEMS, hints: ['suggestion'] },
  'x-ssn': { rule: 'ssn', reasons: SSN_PROBLEMS },
  'x-date': { rule: 'date', reasons: DATE_PROBLEMS, optional: ['future', 'minor', 'tooOld'] },
  'x-name': { rule: 'name', reasons: NAME_PROBLEMS },
  'x-lei': { rule: 'lei', reasons: LEI_PROBLEMS },
};

/**
 * Annotations (no validation effect). Their meaning:
 * - `x-sections` (form root): where each payload section sits, as a JSON pointer into the payload;
 *   the first segment names the multipart JSON part (`"financialInfo":
 *   "/individualInfo/details/financialInfo"`).
 * - `x-section`: the payload section of a top-level field (a name from `x-sections`).
 * - `x-variants`: value → variant name sent beside the answer (`{"true": "IsMarried", …}`).
 * - `x-sensitive`: never kept in browser drafts (SSN, date of birth, passport numbers).
 * - `x-file`: a file reference field (`image`, `pdf` or `image-or-pdf`); its bytes travel as a
 *   multipart part, checked by content on the server.
 * - `x-document`: the PDF an agreement signs, attached to the submission (agreements only).
 * - `x-template`: a blank form the user downloads, fills in and uploads (a file field's template:
 *   the corporate guarantee, the authorized signer form); never attached by the serializer.
 * - `x-signatures` (form root): each payload section's signature prompt (the attestation the
 *   user makes by submitting that step), sent as the section's `signature` entry, with the PDF
 *   it signs (`document`) attached like an agreement's.
 * - `x-registration` (form root): what a stored registration makes of the answers: the new
 *   organisation's kind and name (answer keys joined by a space), which answers become the
 *   user's details, and the list of affiliated persons stored one row each; how the choice page
 *   offers it (`choice`: label, description, order), its page (`page`: title, the link back to the
 *   choice, the validation delay) and the confirmation after submitting (`submitted`), each
 *   defaulting (model/registration.ts) to the form's title and description and the portal's
 *   usual confirmation.
 * - `x-submission-required`: the message thrown when building the payload without this answer.
 * - `x-also-in`: further payload sections repeating this answer (`["userInfo"]`).
 * - `x-prefill`: where the browser prefills a value from (`user.email`).
 * - `x-messages` (form root): the message of each validation keyword (`type`, `required`…) where
 *   a question has no `errorMessage` of its own for it; users never read Ajv's English.
 * - `x-person-column`: the `registration_persons` column an affiliated person's answer fills
 *   (`first_name`, …; model/personColumns.ts).
 * - `x-send-as`: the value the payload carries instead of the answer: a map from answer to value
 *   (`{"direct": true, "indirect": false}`) or `"iso-date"` (MM/DD/YYYY answered, yyyy-MM-dd sent).
 */
const ANNOTATION_KEYWORDS: KeywordDefinition[] = [
  {
    keyword: 'x-sections',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      additionalProperties: { type: 'string', pattern: '^(/[^/]+)+$' },
    },
  },
  { keyword: 'x-section', schemaType: 'string' },
  {
    keyword: 'x-variants',
    schemaType: 'object',
    metaSchema: { type: 'object', additionalProperties: { type: 'string' } },
  },
  { keyword: 'x-sensitive', schemaType: 'boolean' },
  {
    keyword: 'x-file',
    schemaType: 'string',
    metaSchema: { enum: ['image', 'pdf', 'image-or-pdf'] },
  },
  { keyword: 'x-document', schemaType: 'string' },
  { keyword: 'x-template', schemaType: 'string' },
  {
    keyword: 'x-signatures',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { prompt: { type: 'string', minLength: 1 }, document: { type: 'string' } },
        required: ['prompt'],
        additionalProperties: false,
      },
    },
  },
  {
    keyword: 'x-registration',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      properties: {
        organizationKind: { enum: ['individual', 'business'] },
        organizationName: { type: 'array', items: { type: 'string' }, minItems: 1 },
        userDetails: {
          type: 'object',
          properties: {
            firstName: { type: 'string' },
            lastName: { type: 'string' },
            phoneNumber: { type: 'string' },
          },
          required: ['firstName', 'lastName', 'phoneNumber'],
          additionalProperties: false,
        },
        persons: { type: 'string' },
        choice: {
          type: 'object',
          properties: {
            label: { type: 'string', minLength: 1 },
            description: { type: 'string', minLength: 1 },
            order: { type: 'number' },
          },
          additionalProperties: false,
        },
        page: {
          type: 'object',
          properties: {
            title: { type: 'string', minLength: 1 },
            otherChoice: { type: 'string', minLength: 1 },
            validationDelayMs: { type: 'integer', minimum: 0, maximum: 5000 },
          },
          additionalProperties: false,
        },
        submitted: {
          type: 'object',
          properties: {
            title: { type: 'string', minLength: 1 },
            text: { type: 'string', minLength: 1 },
            button: { type: 'string', minLength: 1 },
            then: { enum: ['home', 'start-afresh'] },
          },
          additionalProperties: false,
        },
      },
      // `choice`, `page` and `submitted` and each of their members have defaults
      // (model/registration.ts): a new kind writes only what is its own.
      required: ['organizationKind', 'organizationName', 'userDetails'],
      additionalProperties: false,
    },
  },
  { keyword: 'x-submission-required', schemaType: 'string' },
  {
    keyword: 'x-also-in',
    schemaType: 'array',
    metaSchema: { type: 'array', items: { type: 'string' } },
  },
  { keyword: 'x-prefill', schemaType: 'string' },
  // Which column `forms check` says it may name is personColumns.ts's to say, in a sentence.
  { keyword: 'x-person-column', schemaType: 'string' },
  {
    keyword: 'x-messages',
    schemaType: 'object',
    metaSchema: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
  },
  {
    keyword: 'x-send-as',
    schemaType: ['string', 'object'],
    metaSchema: {
      oneOf: [
        { enum: ['iso-date'] },
        {
          type: 'object',
          minProperties: 1,
          additionalProperties: { type: ['string', 'number', 'boolean'] },
        },
      ],
    },
  },
];

function ruleKeyword(keyword: `x-${RuleName}`): KeywordDefinition {
  const { rule, reasons, optional = [], hints = [] } = RULE_KEYWORDS[keyword];
  const required = reasons.filter((reason) => !optional.includes(reason));
  const adapter = ruleAdapters[rule];
  return {
    keyword,
    type: 'string',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      properties: Object.fromEntries(
        [...reasons, ...hints].map((reason) => [reason, { type: 'string' }]),
      ),
      required,
      additionalProperties: false,
    },
    code(cxt: KeywordCxt) {
      const { gen, data, schemaCode } = cxt;
      const check: Name = gen.scopeValue('func', {
        ref: adapter,
        code: _`require(${RULES_MODULE_ID}).ruleAdapters[${rule}]`,
      });
      const reason = gen.const('reason', _`${check}(${data}, ${schemaCode})`);
      cxt.setParams({ reason });
      cxt.fail(_`${reason} !== null`);
    },
    error: {
      message: ({ schemaCode, params }) => _`${schemaCode}[${params.reason}]`,
      params: ({ params }) => _`{reason: ${params.reason}}`,
    },
  };
}

/**
 * `x-rules`: rules across answers (answerRules.ts), each a JSON Logic expression over the answers
 * of the schema holding it, its message shown at `at`. One error carries every broken rule
 * (`params.problems`); validateAnswers gives each its own message and place.
 */
const ANSWER_RULES_KEYWORD: KeywordDefinition = {
  keyword: 'x-rules',
  schemaType: 'array',
  metaSchema: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        rule: {},
        message: { type: 'string', minLength: 1 },
        at: { type: 'string', pattern: '^(/[^/]*)*$' },
        values: { type: 'object', propertyNames: { pattern: '^[A-Za-z_]\\w*$' } },
        $comment: { type: 'string' },
      },
      required: ['rule', 'message'],
      additionalProperties: false,
    },
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schemaCode } = cxt;
    const check: Name = gen.scopeValue('func', {
      ref: answerRuleProblems,
      code: _`require(${RULES_MODULE_ID}).answerRuleProblems`,
    });
    const problems = gen.const('problems', _`${check}(${data}, ${schemaCode})`);
    cxt.setParams({ problems });
    cxt.fail(_`${problems}.length > 0`);
  },
  error: {
    message: ({ params }) => _`${params.problems}[0].message`,
    params: ({ params }) => _`{problems: ${params.problems}}`,
  },
};

/** Registers every `x-…` keyword on `ajv` and returns it. */
export function addProjectKeywords(ajv: Ajv): Ajv {
  addOnce(ajv, ANSWER_RULES_KEYWORD);
  for (const keyword of Object.keys(RULE_KEYWORDS) as `x-${RuleName}`[]) {
    addOnce(ajv, ruleKeyword(keyword));
  }
  for (const definition of ANNOTATION_KEYWORDS) addOnce(ajv, definition);
  return ajv;
}

/**
 * What each keyword's `metaSchema` compiled to, by keyword. Ajv compiles a keyword's metaSchema
 * in every instance it is added to, and the engine makes one instance per form (the server's
 * validator, the browser's build): half the time `forms check` spent on a small form. The
 * function checks the keyword's value the same way in any instance.
 */
const metaValidators = new Map<string, KeywordDefinition['validateSchema']>();

/**
 * Why a project keyword's value is not what the keyword takes (Ajv's errors of its metaSchema,
 * each at a pointer into the value); [] when it is, or when the keyword has no metaSchema or was
 * never added to an instance.
 */
export function keywordValueErrors(keyword: string, value: unknown): ErrorObject[] {
  const validate = metaValidators.get(keyword);
  if (!validate || validate(value)) return [];
  return [...(validate.errors ?? [])];
}

/** The members a project keyword's value may have (its metaSchema's properties). */
export function keywordMembers(keyword: string): string[] {
  const definition = ANNOTATION_KEYWORDS.find((each) => each.keyword === keyword);
  const properties = (definition?.metaSchema as { properties?: object } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}

function addOnce(ajv: Ajv, definition: KeywordDefinition): void {
  const keyword = definition.keyword as string;
  const compiled = metaValidators.get(keyword);
  if (compiled) {
    const { metaSchema: _compiledAlready, ...rest } = definition;
    ajv.addKeyword({ ...rest, validateSchema: compiled });
    return;
  }
  ajv.addKeyword(definition);
  const added = ajv.getKeyword(keyword);
  if (added && typeof added === 'object' && added.validateSchema) {
    metaValidators.set(keyword, added.validateSchema);
  }
}
