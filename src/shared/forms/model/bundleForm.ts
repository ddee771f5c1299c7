/**
 * Turns the files of a form (schemas/<form-id>/…) into the one self-contained schema the engine,
 * rjsf and Ajv use: references to schemas/common files become local `#/$defs/…` references (rjsf
 * resolves local references only), the common definitions are copied in, and `{firm}` becomes
 * the firm's display name. The hash covers what the user sees: bundled schema plus uiSchema.
 */
import { firm } from '../../config/firm';
import { sha256 } from '../payload/sha256';
import { isPlainObject, type JsonSchema, type UiSchema } from './schemaTypes';
import { findRecursiveReference, recursiveReferenceMessage } from '../walk/recursion';
import { isChoice, pointerTarget } from '../walk/schemaWalk';
import { resolveBundledIds } from './bundledIds';
import { nearestName } from './nearest';
import { toPointer } from './pointer';
import { WIDGET_NAMES } from './widgetNames';

/**
 * A form the engine refuses to bundle, said as `forms check` says it (what to write instead),
 * with the place in the bundled schema.
 */
export class FormSchemaError extends Error {
  override name = 'FormSchemaError';
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
  }
}

/** `../common/<file>.schema.json#/$defs/<name>`, as form schemas refer to common definitions. */
const COMMON_REF = /^\.\.\/common\/([a-z0-9-]+\.schema\.json)#\/\$defs\/([A-Za-z0-9]+)$/;

export interface FormFiles {
  schema: unknown;
  uiSchema: unknown;
  example: unknown;
}

export interface BundledForm {
  schema: JsonSchema;
  uiSchema: UiSchema;
  example: Record<string, unknown>;
  /** SHA-256 (hex) of the bundled schema and uiSchema: the wording version the user saw. */
  hash: string;
}

/** Common schema files by file name (`address.schema.json`). */
export type CommonSchemas = Record<string, unknown>;

const FIRM_PLACEHOLDER = /\{firm\}/g;

function substitute(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(FIRM_PLACEHOLDER, firm.displayName);
  if (Array.isArray(value)) return value.map(substitute);
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
  }
  return value;
}

/**
 * Rewrites common references to local ones, collecting the definitions they need; a reference to
 * a common file or definition that does not exist is refused at its place (`keys`, in the bundled
 * schema), with the name it was probably meant to be.
 */
function localise(
  value: unknown,
  commons: CommonSchemas,
  needed: Map<string, unknown>,
  keys: string[] = [],
): unknown {
  if (Array.isArray(value)) {
    return value.map((item, i) => localise(item, commons, needed, [...keys, String(i)]));
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && COMMON_REF.test(child)) {
      const [, file = '', name = ''] = COMMON_REF.exec(child) ?? [];
      const definition = commonDefinition(commons, file, name, toPointer([...keys, key]));
      if (!needed.has(name)) {
        needed.set(name, null); // placeholder first: definitions may refer to each other
        needed.set(name, localise(definition, commons, needed, ['$defs', name]));
      }
      out.$ref = `#/$defs/${name}`;
    } else {
      out[key] = localise(child, commons, needed, [...keys, key]);
    }
  }
  return out;
}

/** A common file's definition, or a FormSchemaError at `pointer` naming what was meant. */
function commonDefinition(
  commons: CommonSchemas,
  file: string,
  name: string,
  pointer: string,
): unknown {
  const common = commons[file];
  if (!isPlainObject(common)) {
    const near = nearestName(file, Object.keys(commons));
    throw new FormSchemaError(
      `the reference names ../common/${file}, which is no file of schemas/common/` +
        (near ? ` (did you mean ${near}?)` : ''),
      pointer,
    );
  }
  const definitions = isPlainObject(common.$defs) ? common.$defs : {};
  if (!definitions[name]) {
    const near = nearestName(name, Object.keys(definitions));
    throw new FormSchemaError(
      `the common definition ${name} does not exist in schemas/common/${file}` +
        (near ? ` (did you mean ${near}?)` : ''),
      pointer,
    );
  }
  return definitions[name];
}

/** JSON with object keys sorted, so the hash does not depend on formatting. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A choice whose values are objects (`"type": "object"` with an `enum` of objects, or `oneOf`
 * object consts) gets `additionalProperties: true`, which JSON Schema assumes anyway: rjsf's
 * omitExtraData keeps of an object only the properties its schema lists, so without it the
 * chosen object reached the session as `{}`.
 */
function keepObjectChoicesWhole(node: unknown): void {
  if (Array.isArray(node)) node.forEach(keepObjectChoicesWhole);
  if (!isPlainObject(node)) return;
  const choice = node as JsonSchema;
  const values = [
    ...(Array.isArray(choice.enum) ? choice.enum : []),
    ...(choice.const !== undefined ? [choice.const] : []),
    ...[choice.oneOf, choice.anyOf]
      .flatMap((options) => (Array.isArray(options) ? (options as JsonSchema[]) : []))
      .map((option) => option.const),
  ];
  if (isChoice(choice) && values.some(isPlainObject) && choice.additionalProperties === undefined) {
    choice.additionalProperties = true;
  }
  for (const [key, value] of Object.entries(node)) {
    if (!['enum', 'const', 'default', 'examples'].includes(key)) keepObjectChoicesWhole(value);
  }
}

/**
 * rjsf's registry name of a widget ('RadioWidget', as its playground and docs write it) becomes
 * the name a uiSchema gives it ('radio'), so every reader knows one name for one widget.
 */
function nameWidgetsAsUiSchemasDo(node: unknown): void {
  if (Array.isArray(node)) for (const item of node) nameWidgetsAsUiSchemasDo(item);
  if (!isPlainObject(node)) return;
  const widget = node['ui:widget'];
  const stem = typeof widget === 'string' ? /^(\w+)Widget$/.exec(widget)?.[1] : undefined;
  const named = stem && WIDGET_NAMES.find((name) => name.toLowerCase() === stem.toLowerCase());
  if (named) node['ui:widget'] = named;
  for (const value of Object.values(node)) nameWidgetsAsUiSchemasDo(value);
}

export function bundleForm(files: FormFiles, commons: CommonSchemas): BundledForm {
  const needed = new Map<string, unknown>();
  const own = isPlainObject(files.schema) ? resolveBundledIds(files.schema) : files.schema;
  const { $schema: _draft, ...schema } = localise(own, commons, needed) as JsonSchema;
  const ownDefs = (schema.$defs ?? {}) as Record<string, unknown>;
  for (const name of needed.keys()) {
    if (name in ownDefs) throw new Error(`Definition ${name} is both common and the form's own`);
  }
  const bundled = substitute({
    ...schema,
    $defs: { ...Object.fromEntries(needed), ...ownDefs },
  }) as JsonSchema;
  keepObjectChoicesWhole(bundled);
  // A root with questions and no `type` is an object of questions, as rjsf reads it: said so
  // here, every reader (check, validate, payload, the server, the browser) reads it alike.
  if (bundled.type === undefined && isPlainObject(bundled.properties)) bundled.type = 'object';
  const unresolved = findUnresolvedReference(bundled);
  if (unresolved) throw new FormSchemaError(unresolved.message, unresolved.pointer);
  // Refused here, so that check, the server's start and the browser build all say so rather
  // than expand a form that holds itself without end.
  const recursive = findRecursiveReference(bundled);
  if (recursive) throw new FormSchemaError(recursiveReferenceMessage(recursive), recursive.pointer);
  const uiSchema = substitute(files.uiSchema) as UiSchema;
  nameWidgetsAsUiSchemasDo(uiSchema);
  return {
    schema: bundled,
    uiSchema,
    example: files.example as Record<string, unknown>,
    hash: sha256(canonicalJson({ schema: bundled, uiSchema })),
  };
}

/**
 * The first local reference that points to nothing (a typo: `#/$defs/adress`), at the pointer
 * of its `$ref`, with the nearest definition the form has suggested.
 */
function findUnresolvedReference(
  root: JsonSchema,
): { pointer: string; message: string } | undefined {
  const definitions = ['$defs', 'definitions'].flatMap((group) =>
    isPlainObject(root[group])
      ? Object.keys(root[group]).map((name) => `#${toPointer([group, name])}`)
      : [],
  );
  const visit = (
    node: unknown,
    keys: string[],
  ): { pointer: string; message: string } | undefined => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) {
        const found = visit(item, [...keys, String(i)]);
        if (found) return found;
      }
    }
    if (!isPlainObject(node)) return undefined;
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#')) {
        if (pointerTarget(child, root)) continue;
        const near = nearestName(child, definitions, Math.max(3, Math.floor(child.length / 3)));
        return {
          pointer: toPointer([...keys, key]),
          message:
            `the reference ${child} points to no definition of the form` +
            (near
              ? ` (did you mean ${near}?)`
              : ' (write #/$defs/<name> of a definition the form has)'),
        };
      }
      if (key.startsWith('x-') || ['enum', 'const', 'default', 'examples'].includes(key)) continue;
      const found = visit(child, [...keys, key]);
      if (found) return found;
    }
    return undefined;
  };
  return visit(root, []);
}
