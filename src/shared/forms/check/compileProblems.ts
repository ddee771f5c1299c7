/**
 * A form Ajv refuses to compile, said in words at each place (issue 37 §4), for `forms check` and
 * `forms validate` alike: Ajv stops at the first fault and names no place ('strict mode: unknown
 * keyword: "maxLenght"', 'keyword "x-registration" value is invalid at path "#"'). Here every
 * unknown keyword is found with the keyword probably meant, a project keyword's value is said
 * member by member, and a value JSON Schema does not allow at the pointer holding it.
 */
import type { ErrorObject } from 'ajv';
import { compileValidator } from '../model/compileNode';
import { formFile, type Problem } from '../model/formFiles';
import { nearestName } from '../model/nearest';
import { isPlainObject } from '../model/schemaTypes';
import { fromPointer, toPointer } from '../model/pointer';
import { FormSchemaError } from '../model/bundleForm';
import { keywordMembers, keywordValueErrors } from '../validation/keywords';
import { buildProblem } from './checkBuild';
import { ignoredKeywordProblems } from './checkKeywords';

let known: Set<string> | undefined;

/** Every keyword the engine's Ajv knows (JSON Schema's, ajv-errors', the project's `x-…`). */
function knownKeywords(): Set<string> {
  if (!known) {
    const { ajv } = compileValidator({ type: 'object' }) as unknown as {
      ajv: { RULES: { keywords: Record<string, unknown> } };
    };
    // rjsf's own marker keyword is no keyword for a form to write.
    known = new Set(Object.keys(ajv.RULES.keywords).filter((name) => !name.startsWith('__')));
  }
  return known;
}

/** Keywords whose value is a schema, a list of schemas, or schemas by name. */
const ONE_SCHEMA = new Set([
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'items',
]);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

/** Each schema object of a schema (the root and every subschema), with its pointer. */
function eachSchema(
  schema: unknown,
  visit: (node: Record<string, unknown>, keys: string[]) => void,
) {
  const walk = (node: unknown, keys: string[]) => {
    if (!isPlainObject(node)) return;
    visit(node, keys);
    for (const [key, value] of Object.entries(node)) {
      if (ONE_SCHEMA.has(key) && isPlainObject(value)) walk(value, [...keys, key]);
      if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
        value.forEach((item, i) => walk(item, [...keys, key, String(i)]));
      }
      if (SCHEMA_MAPS.has(key) && isPlainObject(value)) {
        for (const [name, child] of Object.entries(value)) walk(child, [...keys, key, name]);
      }
    }
  };
  walk(schema, []);
}

/** ajv-errors' own members of `errorMessage` beside the keywords it words. */
const ERROR_MESSAGE_MEMBERS = new Set(['_', 'properties', 'items', 'required', 'dependencies']);

/**
 * Every keyword the engine does not know, wherever a schema stands, with the one probably meant;
 * and every `errorMessage` entry for no keyword (ajv-errors ignores it: the message would never
 * be shown).
 */
export function unknownKeywordProblems(formId: string, schema: unknown): Problem[] {
  const file = formFile(formId, 'schema');
  const keywords = knownKeywords();
  const problems: Problem[] = [];
  const meant = (word: string) => {
    const near = nearestName(word, keywords);
    return near ? ` did you mean ${near}?` : '';
  };
  eachSchema(schema, (node, keys) => {
    for (const [key, value] of Object.entries(node)) {
      if (!keywords.has(key)) {
        problems.push({
          file,
          pointer: toPointer([...keys, key]),
          message: key.startsWith('x-')
            ? `unknown keyword ${key}:${meant(key)} the portal has no such annotation (see schemas/README.md)`
            : `unknown keyword ${key}:${meant(key)} JSON Schema has no such keyword (an annotation of the portal starts with x-; see schemas/README.md)`,
        });
      }
      if (key === 'errorMessage' && isPlainObject(value)) {
        for (const member of Object.keys(value)) {
          if (keywords.has(member) || ERROR_MESSAGE_MEMBERS.has(member)) continue;
          problems.push({
            file,
            pointer: toPointer([...keys, key, member]),
            message: `errorMessage for ${member}, which is no keyword, would never be shown:${meant(member) || ' remove it'}`,
          });
        }
      }
    }
  });
  return problems;
}

/** One of Ajv's metaSchema errors about a keyword's value, in words. */
function memberProblem(keyword: string, error: ErrorObject): string {
  const where = error.instancePath
    ? `${keyword}${error.instancePath.replace(/\//g, '.')}`
    : keyword;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${where} needs its member ${String(params.missingProperty)}`;
    case 'additionalProperties': {
      const member = String(params.additionalProperty);
      const near = error.instancePath ? undefined : nearestName(member, keywordMembers(keyword));
      return `${where} has no member ${member}${near ? ` (did you mean ${near}?)` : ''}`;
    }
    case 'enum':
      return `${where} is one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `${where} must be ${String(params.type)}`;
    case 'minLength':
      return `${where} must not be empty`;
    default:
      return `${where} ${error.message ?? 'is not allowed here'}`;
  }
}

/** A project keyword's value refused by its metaSchema: each fault at its member. */
function keywordValueProblems(formId: string, schema: unknown, text: string): Problem[] {
  const match = /keyword "([^"]+)" value is invalid at path "#([^"]*)"/.exec(text);
  if (!match) return [];
  const [, keyword = '', at = ''] = match;
  let node: unknown = schema;
  for (const key of fromPointer(at)) node = isPlainObject(node) ? node[key] : undefined;
  const value = isPlainObject(node) ? node[keyword] : undefined;
  const pointer = `${at}/${keyword}`;
  const errors = keywordValueErrors(keyword, value).filter(
    // `oneOf`'s own line repeats what its options said.
    (error) => error.keyword !== 'oneOf' && error.keyword !== 'anyOf',
  );
  return errors.map((error) => {
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    return {
      file: formFile(formId, 'schema'),
      pointer: `${pointer}${error.instancePath}${extra === undefined ? '' : toPointer([extra])}`,
      message: memberProblem(keyword, error),
    };
  });
}

/** A value JSON Schema's meta-schema refuses ('data/properties/a/type must be …'), at its place. */
function metaSchemaProblem(formId: string, text: string): Problem[] {
  const match = /schema is invalid: data(\/[^ ,]*)? ([^,]+)/.exec(text);
  if (!match) return [];
  const pointer = match[1] ?? '';
  const keyword = fromPointer(pointer).at(-1) ?? '';
  const types = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
  return [
    {
      file: formFile(formId, 'schema'),
      pointer,
      message:
        keyword === 'type'
          ? `"type" is one of ${types.join(', ')}, or a list of them`
          : `JSON Schema does not allow this value of ${keyword || 'the schema'}: it ${match[2]}`,
    },
  ];
}

/**
 * The problems of a form that does not bundle or compile, in words at their places; `schema` is
 * its bundled schema (undefined when it does not bundle).
 */
export function compileProblems(formId: string, schema: unknown, error: unknown): Problem[] {
  const file = formFile(formId, 'schema');
  const text = error instanceof Error ? error.message : String(error);
  if (schema !== undefined) {
    const ignored = ignoredKeywordProblems(formId, schema, error);
    if (ignored.length > 0) return ignored;
    if (/unknown keyword/.test(text)) {
      const unknown = unknownKeywordProblems(formId, schema);
      if (unknown.length > 0) return unknown;
    }
    const value = keywordValueProblems(formId, schema, text);
    if (value.length > 0) return value;
    const meta = metaSchemaProblem(formId, text);
    if (meta.length > 0) return meta;
  }
  const pointer = error instanceof FormSchemaError ? error.pointer : '';
  return [{ file, pointer, message: buildProblem(error) }];
}
