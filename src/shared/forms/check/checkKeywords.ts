/**
 * `forms check`'s promise (issue 37 §2): a keyword that passes check is enforced by the browser,
 * the server and the CLI alike. Ajv's strict mode already refuses unknown keywords and most
 * keywords it would ignore (`minContains` without `contains`, `then` without `if`…); what it lets
 * through silently is refused here, wherever it stands, by name:
 * - keywords JSON Schema treats as annotations only (`contentMediaType`, `contentEncoding`);
 * - a keyword of one kind of answer beside a `type` that excludes it (`maximum` on text), which
 *   would never refuse an answer;
 * - rules across answers (`x-rules`) whose JSON Logic names an operator the engine does not
 *   evaluate, an answer the form does not ask, a value its message does not have, or a place
 *   that is not in the form.
 */
import { argumentsOf, LOGIC_OPERATORS, operatorOf } from '../validation/jsonLogic';
import { isPlainObject, type JsonSchema } from '../model/schemaTypes';
import { allProperties, deref, objectItemsOf } from '../walk/schemaWalk';
import { formFile, type Problem } from '../model/formFiles';
import { fromPointer, toPointer } from '../model/pointer';

/** Keywords Ajv knows and never enforces, with what to write instead. */
const NOT_ENFORCED: Record<string, string> = {
  contentMediaType:
    'it only describes the answer, it refuses nothing: for a file use "$ref": "../common/file.schema.json#/$defs/pdfFile" (or imageFile), for text a "pattern"',
  contentEncoding:
    'it only describes the answer, it refuses nothing: for a file use "$ref": "../common/file.schema.json#/$defs/pdfFile" (or imageFile), for text a "pattern"',
};

/** The kind of answer each type-specific keyword limits (format has number formats too). */
const KEYWORD_TYPES: Record<string, { types: string[]; kind: string }> = {
  ...Object.fromEntries(
    ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].map((k) => [
      k,
      { types: ['number', 'integer'], kind: 'numbers' },
    ]),
  ),
  ...Object.fromEntries(
    ['minLength', 'maxLength', 'pattern'].map((k) => [k, { types: ['string'], kind: 'text' }]),
  ),
  ...Object.fromEntries(
    [
      'items',
      'additionalItems',
      'minItems',
      'maxItems',
      'uniqueItems',
      'contains',
      'minContains',
      'maxContains',
    ].map((k) => [k, { types: ['array'], kind: 'lists' }]),
  ),
  ...Object.fromEntries(
    [
      'properties',
      'required',
      'additionalProperties',
      'patternProperties',
      'propertyNames',
      'minProperties',
      'maxProperties',
      'dependencies',
      'dependentRequired',
      'dependentSchemas',
    ].map((k) => [k, { types: ['object'], kind: 'groups of answers (objects)' }]),
  ),
};

/** Keys whose value is data or wording, not a schema: not walked. */
const NOT_SCHEMAS = new Set(['errorMessage', 'default', 'examples', 'const', 'enum', '$comment']);

/** Every keyword the engine would not enforce, wherever it stands, and every `x-rules` fault. */
export function checkKeywords(formId: string, root: JsonSchema): Problem[] {
  const file = formFile(formId, 'schema');
  const problems: Problem[] = [];
  const visit = (node: unknown, keys: string[]) => {
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, [...keys, String(i)]));
    if (!isPlainObject(node)) return;
    const types = typeof node.type === 'string' ? [node.type] : node.type;
    for (const [key, value] of Object.entries(node)) {
      const pointer = toPointer([...keys, key]);
      const instead = NOT_ENFORCED[key];
      if (instead) problems.push({ file, pointer, message: `${key} is not enforced: ${instead}` });
      const applies = KEYWORD_TYPES[key];
      if (applies && Array.isArray(types) && !types.some((type) => applies.types.includes(type))) {
        problems.push({
          file,
          pointer,
          message: `${key} limits ${applies.kind}, and this answer is ${types.join(' or ')} ("type"), so it would never refuse anything: remove it, or change "type"`,
        });
      }
      if (key === 'x-rules') problems.push(...answerRuleProblems(file, root, node, keys, value));
      if (!NOT_SCHEMAS.has(key) && !key.startsWith('x-')) visit(value, [...keys, key]);
    }
  };
  visit(root, []);
  return problems;
}

/** What a rule's data is where it stands: the schema of the answers it reads, when known. */
type Scope = { schema: JsonSchema } | { current: JsonSchema } | undefined;

function answerRuleProblems(
  file: string,
  root: JsonSchema,
  holder: Record<string, unknown>,
  keys: string[],
  rules: unknown,
): Problem[] {
  const problems: Problem[] = [];
  if (!Array.isArray(rules)) return problems;
  if (typeof holder.errorMessage === 'string') {
    problems.push({
      file,
      pointer: toPointer([...keys, 'errorMessage']),
      message:
        'a single errorMessage here would replace the messages of x-rules: give errorMessage per keyword ({"required": …})',
    });
  }
  const schema = deref(holder as JsonSchema, root);
  rules.forEach((entry: unknown, index) => {
    if (!isPlainObject(entry)) return;
    const at = toPointer([...keys, 'x-rules', String(index)]);
    const names = isPlainObject(entry.values) ? Object.keys(entry.values) : [];
    const say = (where: string, message: string) =>
      problems.push({ file, pointer: `${at}${where}`, message });
    const logic = (value: unknown, where: string, scope: Scope, values: string[]) => {
      for (const problem of logicProblems(value, scope, values, root)) say(where, problem);
    };
    if (isPlainObject(entry.values)) {
      const earlier: string[] = [];
      for (const [name, value] of Object.entries(entry.values)) {
        if (allProperties(schema, root)[name]) {
          say(`/values/${name}`, `the value ${name} has the name of an answer: name it otherwise`);
        }
        logic(value, `/values/${name}`, { schema }, earlier);
        earlier.push(name);
      }
    }
    logic(entry.rule, '/rule', { schema }, names);
    if (typeof entry.message === 'string') {
      for (const [, name] of entry.message.matchAll(/\{([A-Za-z_]\w*)\}/g)) {
        if (!names.includes(name!)) {
          say('/message', `the message names {${name}}, which is none of the rule's values`);
        }
      }
    }
    if (typeof entry.at === 'string' && !placeExists(schema, entry.at, root)) {
      say('/at', `x-rules "at": ${entry.at} is no answer of the form where the rule stands`);
    }
  });
  return problems;
}

/** Whether `pointer` (from `schema`) names a question, a list or a list's item. */
function placeExists(schema: JsonSchema, pointer: string, root: JsonSchema): boolean {
  let node: JsonSchema | undefined = schema;
  for (const key of fromPointer(pointer)) {
    if (!node) return false;
    const items = objectItemsOf(node, root);
    if (items && /^\d+$/.test(key)) node = items;
    else {
      const child: JsonSchema | undefined = allProperties(node, root)[key];
      node = child ? deref(child, root) : undefined;
    }
  }
  return node !== undefined;
}

/** The operators and answers a JSON Logic expression names that the engine or form has not. */
function logicProblems(logic: unknown, scope: Scope, values: string[], root: JsonSchema): string[] {
  if (Array.isArray(logic))
    return logic.flatMap((each) => logicProblems(each, scope, values, root));
  const operator = operatorOf(logic);
  if (operator === undefined) {
    return isPlainObject(logic) && Object.keys(logic).length > 1
      ? [`an operation has one operator; this one has ${Object.keys(logic).join(', ')}`]
      : [];
  }
  if (!LOGIC_OPERATORS.has(operator)) {
    return [
      `unknown JSON Logic operator "${operator}" (the operators: ${[...LOGIC_OPERATORS].join(' ')})`,
    ];
  }
  const args = argumentsOf(logic);
  if (operator === 'var') return varProblems(args[0], scope, values, root);
  if (['map', 'filter', 'reduce', 'all', 'some', 'none'].includes(operator)) {
    const items = listItems(args[0], scope, values, root);
    const inner: Scope = items
      ? operator === 'reduce'
        ? { current: items }
        : { schema: items }
      : undefined;
    return [
      ...logicProblems(args[0], scope, values, root),
      ...logicProblems(args[1], inner, [], root),
      ...args.slice(2).flatMap((each) => logicProblems(each, scope, values, root)),
    ];
  }
  return args.flatMap((each) => logicProblems(each, scope, values, root));
}

/** The item schema of the list a `{"var": …}` names, when it names one. */
function listItems(
  logic: unknown,
  scope: Scope,
  values: string[],
  root: JsonSchema,
): JsonSchema | undefined {
  if (operatorOf(logic) !== 'var') return undefined;
  const name = argumentsOf(logic)[0];
  if (typeof name !== 'string' || values.includes(name)) return undefined;
  const schema = schemaAt(name, scope, root);
  return schema ? objectItemsOf(schema, root) : undefined;
}

function schemaAt(name: string, scope: Scope, root: JsonSchema): JsonSchema | undefined {
  if (!scope) return undefined;
  let parts = name.split('.');
  let node: JsonSchema | undefined;
  if ('current' in scope) {
    if (parts[0] !== 'current') return undefined;
    node = scope.current;
    parts = parts.slice(1);
  } else node = scope.schema;
  for (const part of parts) {
    const child: JsonSchema | undefined = node ? allProperties(node, root)[part] : undefined;
    node = child ? deref(child, root) : undefined;
  }
  return node;
}

function varProblems(name: unknown, scope: Scope, values: string[], root: JsonSchema): string[] {
  if (typeof name !== 'string' || name === '' || !scope) return [];
  const head = name.split('.')[0]!;
  if (values.includes(head)) return [];
  if ('current' in scope) {
    if (head === 'accumulator' || name === 'current') return [];
    if (head !== 'current') {
      return [
        `inside "reduce" an item is read as current.<answer>, the total so far as accumulator; ${name} is neither`,
      ];
    }
  }
  if (schemaAt(name, scope, root)) return [];
  const known = 'schema' in scope ? Object.keys(allProperties(scope.schema, root)) : [];
  const last = name.split('.').at(-1) ?? name;
  const near = known.find(
    (key) =>
      key.toLowerCase() === last.toLowerCase() || key.startsWith(last) || last.startsWith(key),
  );
  return [`{"var": "${name}"} names no answer here${near ? ` (did you mean ${near}?)` : ''}`];
}

/** Keywords Ajv's strict mode refuses because it would ignore them, each with why, by place. */
function ignoredHere(node: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const keyword of ['minContains', 'maxContains']) {
    if (keyword in node && !('contains' in node)) {
      out.push([
        keyword,
        `${keyword} counts the items that match "contains", and there is no "contains" beside it`,
      ]);
    }
  }
  if ('contains' in node && node.minContains === 0 && !('maxContains' in node)) {
    out.push([
      'minContains',
      '"minContains": 0 without "maxContains" lets every list pass: "contains" would refuse nothing',
    ]);
  }
  if (
    typeof node.minContains === 'number' &&
    typeof node.maxContains === 'number' &&
    node.minContains > node.maxContains
  ) {
    out.push(['minContains', '"minContains" is above "maxContains": no list could pass']);
  }
  if ('if' in node && !('then' in node) && !('else' in node)) {
    out.push(['if', '"if" without "then" or "else" decides nothing: add the rule that applies']);
  }
  for (const keyword of ['then', 'else']) {
    if (keyword in node && !('if' in node)) {
      out.push([keyword, `"${keyword}" without "if" is never applied: add the condition`]);
    }
  }
  if ('additionalItems' in node && !Array.isArray(node.items)) {
    out.push([
      'additionalItems',
      '"additionalItems" applies only to a tuple ("items" as a list): remove it',
    ]);
  }
  return out;
}

/**
 * A form Ajv would not compile because strict mode refuses a keyword it would ignore: each such
 * keyword at its place, in words (Ajv's message names neither); empty for any other failure.
 */
export function ignoredKeywordProblems(formId: string, schema: unknown, error: unknown): Problem[] {
  if (!/strict mode: .*(ignored|always invalid)/.test(String(error))) return [];
  const file = formFile(formId, 'schema');
  const problems: Problem[] = [];
  const visit = (node: unknown, keys: string[]) => {
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, [...keys, String(i)]));
    if (!isPlainObject(node)) return;
    for (const [keyword, why] of ignoredHere(node)) {
      problems.push({
        file,
        pointer: toPointer([...keys, keyword]),
        message: `${keyword} would be ignored: ${why}`,
      });
    }
    for (const [key, value] of Object.entries(node)) {
      if (!NOT_SCHEMAS.has(key) && !key.startsWith('x-')) visit(value, [...keys, key]);
    }
  };
  visit(schema, []);
  return problems;
}
