/**
 * The schema contract, shared by the contract test and the `forms check` CLI: pure, given the
 * files' contents, returns every problem with its file and JSON pointer.
 */
import type { CompiledForm } from '../model/compiledForm';
import { buildProblem, checkBrowserBuild, checkRoot, checkUnsupported } from './checkBuild';
import { checkKeywords } from './checkKeywords';
import { compileProblems, unknownKeywordProblems } from './compileProblems';
import { schemaPointer } from './schemaPlaces';
import { unaskedAnswers, unaskedMessage } from '../walk/answers';
import { compileForms } from '../model/compileNode';
import { bundleForm } from '../model/bundleForm';
import type { FormSources, Problem } from '../model/formFiles';
import { expectedErrorsOf, FixtureError, fixtureAnswers } from './fixtures';
import { RULE_KEYWORDS } from '../validation/keywords';
import { prefillValue } from '../model/prefill';
import { allProperties, deref, isLeaf, objectItemsOf } from '../walk/schemaWalk';
import { isPlainObject, type Answers, type JsonSchema, type UiSchema } from '../model/schemaTypes';
import type { AnswerError } from '../model/types';
import { validateAnswers } from '../validation/validateAnswers';
import { ruleValueNamesAt } from '../validation/ruleValues';
import { stepProblems, stepsOf } from '../model/steps';
import { personColumnProblems } from '../model/personColumns';
import { registrationOf } from '../model/registration';
import { FIELD_NAMES } from '../model/fieldNames';
import { WIDGET_NAMES } from '../model/widgetNames';
import { nearestName } from '../model/nearest';
import { fromPointer, toPointer } from '../model/pointer';

export type { Problem };

/** A fixture file: the example's answers patched (or whole answers) and exactly their messages. */
export interface Fixture {
  file: string;
  content: unknown;
  /** The form it is a case of (default: the name of the folder holding it). */
  formId?: string;
}

const schemaFile = (formId: string) => `schemas/${formId}/${formId}.schema.json`;
const uiFile = (formId: string) => `schemas/${formId}/${formId}.ui.json`;
const exampleFile = (formId: string) => `schemas/${formId}/${formId}.example.json`;

/**
 * Every leaf question has a prompt and a payload section, inside a list's items too (each
 * affiliated person's answers): an item's fields sit in the item's own sections, which need not
 * be the form's.
 */
function checkSchema(formId: string, root: JsonSchema): Problem[] {
  const problems: Problem[] = [];
  const file = schemaFile(formId);
  const walk = (schema: JsonSchema, keys: string[], inItem = false) => {
    for (const [key, child] of Object.entries(allProperties(schema, root))) {
      const path = [...keys, key];
      const resolved = deref(child, root);
      if (isLeaf(resolved) && !resolved.title) {
        problems.push({
          file,
          pointer: toPointer(path),
          message: 'question has no title (prompt)',
        });
      }
      if (!inItem && !resolved['x-section'] && path.length === 1 && root['x-sections']) {
        problems.push({ file, pointer: toPointer(path), message: 'field has no x-section' });
      }
      const section = resolved['x-section'];
      if (!inItem && section && root['x-sections'] && !root['x-sections'][section]) {
        problems.push({ file, pointer: toPointer(path), message: `unknown x-section ${section}` });
      }
      if (!isLeaf(resolved)) walk(resolved, path, inItem);
      const items = objectItemsOf(resolved, root);
      if (items) walk(items, [...path, 'items'], true);
    }
  };
  walk(root, []);
  return atSchemaPlaces(root, problems);
}

/** Problems said at an answer's path, moved to where the schema writes that question. */
const atSchemaPlaces = (root: JsonSchema, problems: Problem[]): Problem[] =>
  problems.map((problem) => ({ ...problem, pointer: schemaPointer(root, problem.pointer) }));

/** Every uiSchema key names a real property, every widget and field is in its registry list. */
function checkUi(formId: string, root: JsonSchema, ui: UiSchema): Problem[] {
  const problems: Problem[] = [];
  const file = uiFile(formId);
  const walk = (schema: JsonSchema, node: UiSchema, keys: string[]) => {
    const properties = allProperties(schema, root);
    for (const [key, value] of Object.entries(node)) {
      const pointer = toPointer([...keys, key]);
      // A list's items (`items`, and a tuple's later ones, `additionalItems`) are styled by
      // their own uiSchema, as rjsf reads it: checked against the item schema.
      const items = !properties[key] ? listItemSchemas(schema, key, root) : undefined;
      if (items) {
        const nodes = Array.isArray(value) ? value : [value];
        nodes.forEach((itemUi: unknown, index) => {
          const itemSchema = items[Math.min(index, items.length - 1)];
          const at = Array.isArray(value) ? [...keys, key, String(index)] : [...keys, key];
          if (!itemSchema) {
            problems.push({
              file,
              pointer: toPointer(at),
              message: `the list has no item ${index + 1}`,
            });
          } else if (isPlainObject(itemUi)) walk(itemSchema, itemUi, at);
          else {
            problems.push({
              file,
              pointer: toPointer(at),
              message: 'a uiSchema of list items is an object',
            });
          }
        });
        continue;
      }
      if (key === 'ui:widget' && !(WIDGET_NAMES as readonly unknown[]).includes(value)) {
        problems.push({ file, pointer, message: unknownWidgetMessage(value) });
      } else if (key === 'ui:widget' && keys.length > 0 && !isLeaf(schema)) {
        problems.push({
          file,
          pointer,
          message: `"ui:widget" draws an object as one answer only for a file reference (x-file); remove it, and the object's fields are asked one by one (a widget belongs on each field)`,
        });
      } else if (key === 'ui:options' && isPlainObject(value) && value.valuesText !== undefined) {
        problems.push(...valuesTextProblems(file, root, keys, value.valuesText));
      } else if (key === 'ui:field' && !(FIELD_NAMES as readonly unknown[]).includes(value)) {
        problems.push({ file, pointer, message: `unknown field ${JSON.stringify(value)}` });
      } else if (key === 'ui:order' && Array.isArray(value)) {
        for (const name of value) {
          if (name !== '*' && !properties[name as string]) {
            problems.push({ file, pointer, message: `ui:order names no property ${String(name)}` });
          }
        }
      } else if (!key.startsWith('ui:')) {
        const child = properties[key];
        if (!child) problems.push({ file, pointer, message: `no property ${key} in the schema` });
        else if (isPlainObject(value)) walk(deref(child, root), value, [...keys, key]);
      }
    }
  };
  walk(root, ui, []);
  return problems;
}

/**
 * A list's running figure (`valuesText`) names only values the rules shown at that list compute:
 * otherwise the line would never show.
 */
function valuesTextProblems(
  file: string,
  root: JsonSchema,
  keys: string[],
  text: unknown,
): Problem[] {
  const pointer = toPointer([...keys, 'ui:options', 'valuesText']);
  if (typeof text !== 'string') return [{ file, pointer, message: 'valuesText is a text' }];
  const known = ruleValueNamesAt(root, toPointer(keys));
  return [...text.matchAll(/\{([A-Za-z_]\w*)\}/g)]
    .map((match) => match[1]!)
    .filter((name) => !known.includes(name))
    .map((name) => ({
      file,
      pointer,
      message: known.length
        ? `valuesText names {${name}}, which no rule shown at ${toPointer(keys)} computes (its values: ${known.join(', ')})`
        : `valuesText names {${name}}, and no rule across answers (x-rules) with values is shown at ${toPointer(keys) || 'the form'}`,
    }));
}

/**
 * The item schemas a list's uiSchema key styles: `items` (every item; a tuple's own, in order),
 * `additionalItems` (a tuple's later items); undefined when `key` is neither for this schema.
 */
function listItemSchemas(
  schema: JsonSchema,
  key: string,
  root: JsonSchema,
): JsonSchema[] | undefined {
  const list = deref(schema, root);
  if (list.type !== 'array' && list.items === undefined) return undefined;
  if (key === 'items') {
    if (Array.isArray(list.items)) {
      return list.items.filter(isPlainObject).map((item) => deref(item as JsonSchema, root));
    }
    return isPlainObject(list.items) ? [deref(list.items as JsonSchema, root)] : undefined;
  }
  // A tuple's later items: their schema, or any value when the tuple leaves them open.
  if (key === 'additionalItems' && Array.isArray(list.items) && list.additionalItems !== false) {
    const more = list.additionalItems;
    return [isPlainObject(more) ? deref(more as JsonSchema, root) : {}];
  }
  return undefined;
}

/** A wizard's steps: titled, labelled, and every top-level question in exactly one step. */
function checkSteps(formId: string, root: JsonSchema, ui: UiSchema): Problem[] {
  const steps = stepsOf(ui, root);
  if (!steps) return [];
  const names = Object.keys(allProperties(root, root));
  return stepProblems(steps, ui['ui:steps'], names, root).map((problem) => ({
    file: uiFile(formId),
    ...problem,
  }));
}

/** Every rule keyword gives a message for each reason (Ajv's meta-schema checks that too). */
function checkRuleMessages(formId: string, root: JsonSchema): Problem[] {
  const problems: Problem[] = [];
  const visit = (node: unknown, keys: string[]) => {
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, [...keys, String(i)]));
    if (!isPlainObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const rule = RULE_KEYWORDS[key as keyof typeof RULE_KEYWORDS];
      if (rule && isPlainObject(value)) {
        for (const reason of rule.reasons) {
          if (!(reason in value) && !rule.optional?.includes(reason)) {
            problems.push({
              file: schemaFile(formId),
              pointer: toPointer([...keys, key]),
              message: `no message for ${reason}`,
            });
          }
        }
      }
      visit(value, [...keys, key]);
    }
  };
  visit(root, []);
  return problems;
}

/** The validation keywords whose failure a user can meet, so each needs its message. */
const MESSAGE_KEYWORDS = [
  'type',
  'required',
  'uniqueItems',
  'dependencies',
  'dependentRequired',
  'not',
  'minProperties',
  'maxProperties',
  'propertyNames',
  // `minContains`/`maxContains` fail as `contains`: its message covers them.
  'contains',
  'anyOf',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'format',
  'enum',
  'const',
  'oneOf',
  'minItems',
  'maxItems',
] as const;

/**
 * Every validation keyword a user can fail has its message in the schema (`errorMessage`, a string
 * or an entry for that keyword): otherwise the user would read Ajv's English default ('must NOT
 * have more than 100 characters'). Conditions (`if`), the options of a choice and the messages
 * of rule keywords are not checked. Pointers are in the bundled form: common definitions sit
 * under `/$defs/<name>`.
 */
function checkKeywordMessages(formId: string, root: JsonSchema): Problem[] {
  const problems: Problem[] = [];
  const missing = new Map<string, string[]>();
  const defaults = root['x-messages'] ?? {};
  const visit = (node: unknown, keys: string[]) => {
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, [...keys, String(i)]));
    if (!isPlainObject(node)) return;
    const message = node.errorMessage;
    const isOption = keys.at(-2) === 'oneOf' || keys.at(-2) === 'anyOf';
    const reported = MESSAGE_KEYWORDS.filter((keyword) => {
      if (!(keyword in node) || (keyword === 'const' && isOption)) return false;
      if (keyword === 'required') return Array.isArray(node.required) && node.required.length > 0;
      // A choice's options say what each value means; a wrong type or a value outside them
      // is the choice's own message.
      if (keyword === 'type' && isOption) return false;
      return true;
    });
    // `additionalProperties: false` and `additionalItems: false` refuse what the form never asks.
    if (node.additionalProperties === false) reported.push('additionalProperties' as never);
    if (node.additionalItems === false) reported.push('additionalItems' as never);
    for (const keyword of reported) {
      if (typeof message === 'string' || (isPlainObject(message) && keyword in message)) continue;
      if (defaults[keyword]) continue;
      missing.set(keyword, [...(missing.get(keyword) ?? []), toPointer([...keys, keyword])]);
    }
    for (const [key, value] of Object.entries(node)) {
      // A `contains` item's own failures are never shown (the list's message is): no message.
      const skipped = [
        'if',
        'contains',
        'errorMessage',
        'default',
        'examples',
        'const',
        'enum',
      ].includes(key);
      if (!skipped && !key.startsWith('x-')) visit(value, [...keys, key]);
    }
  };
  visit(root, []);
  // The same message missing at many places is one decision: a default for the whole form.
  for (const [keyword, pointers] of missing) {
    if (pointers.length < MANY_MISSING) {
      for (const pointer of pointers) {
        problems.push({
          file: schemaFile(formId),
          pointer,
          message: `no errorMessage for ${keyword} (give one here, or a default for the form in x-messages at its root)`,
        });
      }
      continue;
    }
    const shown = pointers.slice(0, 3).join(', ');
    const more = pointers.length > 3 ? ` and ${pointers.length - 3} more` : '';
    problems.push({
      file: schemaFile(formId),
      pointer: '/x-messages',
      message:
        `no errorMessage for ${keyword} at ${pointers.length} places (${shown}${more}): give the ` +
        `form one in x-messages at its root ("x-messages": { "${keyword}": "…" }), or one at each`,
    });
  }
  return problems;
}

/** From this many places missing the same keyword's message, check says it once per form. */
const MANY_MISSING = 3;

/**
 * The document annotations say what they mean: `x-document` (the PDF an agreement signs, attached
 * to the submission) only on an agreement, a yes/no answered true; `x-template` (a blank form the
 * user downloads and uploads signed) only on a file answer; every PDF they name exists under
 * /assets/pdfs when the list of those files is given. `x-signatures` name payload sections,
 * `x-registration` names answers, `x-prefill` a known source, and a build-time check
 * (`x-submission-required`) sits on an answer the form can ask, inside list items too.
 */
function checkDocuments(formId: string, root: JsonSchema, assetFiles?: string[]): Problem[] {
  const problems: Problem[] = [];
  const file = schemaFile(formId);
  const checkUrl = (url: unknown, pointer: string) => {
    if (typeof url !== 'string' || !/^\/assets\/pdfs\/[\w.-]+\.pdf$/.test(url)) {
      problems.push({ file, pointer, message: 'a document must be a PDF under /assets/pdfs/' });
    } else if (assetFiles && !assetFiles.includes(url)) {
      problems.push({ file, pointer, message: `no such document ${url}` });
    }
  };
  const walk = (schema: JsonSchema, keys: string[]) => {
    for (const [key, child] of Object.entries(allProperties(schema, root))) {
      const path = [...keys, key];
      const resolved = deref(child, root);
      if (resolved['x-document'] !== undefined) {
        checkUrl(resolved['x-document'], toPointer([...path, 'x-document']));
        if (resolved.type !== 'boolean' || resolved.const !== true) {
          problems.push({
            file,
            pointer: toPointer([...path, 'x-document']),
            message:
              'x-document is the PDF an agreement signs (a yes/no that must be true); a blank form the user downloads is x-template',
          });
        }
      }
      if (resolved['x-template'] !== undefined) {
        checkUrl(resolved['x-template'], toPointer([...path, 'x-template']));
        if (!resolved['x-file']) {
          problems.push({
            file,
            pointer: toPointer([...path, 'x-template']),
            message: 'x-template (a blank form to download) belongs on a file answer',
          });
        }
      }
      const source = resolved['x-prefill'];
      if (source !== undefined && prefillValue(source, { email: '' }) === undefined) {
        problems.push({
          file,
          pointer: toPointer([...path, 'x-prefill']),
          message: `unknown prefill source ${source}`,
        });
      }
      if (!isLeaf(resolved)) walk(resolved, path);
      const items = objectItemsOf(resolved, root);
      if (items) walk(items, [...path, 'items']);
    }
  };
  walk(root, []);
  const sections = root['x-sections'] ?? {};
  for (const [section, signature] of Object.entries(root['x-signatures'] ?? {})) {
    const pointer = toPointer(['x-signatures', section]);
    if (!sections[section]) {
      problems.push({ file, pointer, message: `x-signatures names no x-section ${section}` });
    }
    if (signature.document !== undefined) checkUrl(signature.document, `${pointer}/document`);
  }
  const registration = root['x-registration'];
  if (registration) {
    const properties = allProperties(root, root);
    const named = [
      ...registration.organizationName.map((key, i) => [key, `organizationName/${i}`] as const),
      ...Object.entries(registration.userDetails).map(
        ([detail, key]) => [key, `userDetails/${detail}`] as const,
      ),
    ];
    for (const [key, where] of named) {
      if (!properties[key]) {
        problems.push({
          file,
          pointer: `/x-registration/${where}`,
          message: `x-registration names no answer ${key}`,
        });
      }
    }
    const persons = registration.persons;
    if (persons && !(properties[persons] && objectItemsOf(properties[persons], root))) {
      problems.push({
        file,
        pointer: '/x-registration/persons',
        message: `x-registration persons ${persons} is not a list of records`,
      });
    }
    for (const problem of personColumnProblems(root)) problems.push({ file, ...problem });
    // The defaults take the form's title: without one, the kind would be offered unnamed.
    const served = registrationOf(root);
    for (const [member, value] of [
      ['choice/label', served?.choice.label],
      ['page/title', served?.page.title],
    ] as const) {
      if (value) continue;
      problems.push({
        file,
        pointer: '/x-registration',
        message: `x-registration needs ${member.replace('/', '.')}, or a "title" at the form's root to take it from`,
      });
    }
  }
  return atSchemaPlaces(root, problems);
}

const formatError = (error: AnswerError) => `${error.path || '(form)'}: ${error.message}`;

const sortErrors = (errors: AnswerError[]) =>
  [...errors].sort((a, b) => `${a.path}\n${a.message}`.localeCompare(`${b.path}\n${b.message}`));

/**
 * A fixture yields exactly its expected messages (order aside); a patch that no longer applies
 * to the example is named in one sentence.
 */
export function checkFixture(form: CompiledForm, fixture: Fixture): Problem[] {
  const { file, content } = fixture;
  let answers;
  try {
    answers = fixtureAnswers(form.id, form.example, content);
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    return [{ file, pointer: error.pointer, message: error.message }];
  }
  const problems = strayAnswers(form, fixture, answers);
  const expected = sortErrors(expectedErrorsOf(content));
  const actual = sortErrors(validateAnswers(form, answers).errors);
  const key = (error: AnswerError) => `${error.path}\n${error.message}`;
  const missing = expected.filter((error) => !actual.some((other) => key(other) === key(error)));
  const unexpected = actual.filter((error) => !expected.some((other) => key(other) === key(error)));
  if (missing.length === 0 && unexpected.length === 0) return problems;
  problems.push({ file, pointer: '/expectedErrors', message: fixtureDiff(missing, unexpected) });
  return problems;
}

/**
 * Answers a fixture gives that no question asks, each at its place in the fixture: the answer
 * (whole answers) or the patch operation that adds it. One the example gives is the example's
 * problem, said there.
 */
function strayAnswers(form: CompiledForm, fixture: Fixture, answers: Answers): Problem[] {
  const { file, content } = fixture;
  if (!isPlainObject(content)) return [];
  const fromExample = new Set(
    isPlainObject(content.answers) ? [] : unaskedAnswers(form, form.example),
  );
  const patch = Array.isArray(content.patch) ? content.patch : [];
  return unaskedAnswers(form, answers).flatMap((pointer) => {
    if (isPlainObject(content.answers)) {
      return [{ file, pointer: `/answers${pointer}`, message: unaskedMessage([pointer]) }];
    }
    if (fromExample.has(pointer)) return [];
    const index = patch.findIndex(
      (op: unknown) =>
        isPlainObject(op) &&
        typeof op.path === 'string' &&
        (pointer === op.path || pointer.startsWith(`${op.path.replace(/\/-$/, '')}/`)),
    );
    const at = index === -1 ? '/patch' : `/patch/${index}/path`;
    return [{ file, pointer: at, message: unaskedMessage([pointer]) }];
  });
}

/** A fixture's mismatch as a diff: the messages it expects and does not get, and the others. */
function fixtureDiff(missing: AnswerError[], unexpected: AnswerError[]): string {
  return [
    'the answers give other messages than expected:',
    ...missing.map((error) => `- expected, not given: ${formatError(error)}`),
    ...unexpected.map((error) => `+ given, not expected: ${formatError(error)}`),
  ].join('\n');
}

/**
 * Checks every form of `sources` (compiling each in strict mode) and the given fixtures
 * (`tests/fixtures/forms/<form-id>/*.json`, form id from the folder); `assetFiles`
 * (`/assets/pdfs/….pdf`) lets it check that named documents exist. A form that does not compile
 * is reported and the others checked regardless; the compiled forms come back with the problems.
 */
export function checkForms(
  sources: FormSources,
  fixtures: Fixture[] = [],
  options: { assetFiles?: string[]; unreadForms?: readonly string[] } = {},
): { problems: Problem[]; forms: Map<string, CompiledForm> } {
  const compiled = compileForms(sources);
  const { forms } = compiled;
  const problems = compiled.problems.flatMap((problem) => {
    const formId = fromPointer(`/${problem.file}`).at(-2) ?? '';
    return compileProblems(formId, bundledSchema(sources, formId), compiled.errors.get(formId));
  });
  for (const [formId, form] of forms) {
    try {
      problems.push(...checkForm(formId, form, options.assetFiles));
    } catch (error) {
      // One form's unforeseen fault is its problem; the other forms are checked regardless.
      problems.push({ file: schemaFile(formId), pointer: '', message: buildProblem(error) });
    }
  }
  // A form that does not load is said once; its fixtures wait for it (no line for each).
  const broken = new Set([...Object.keys(sources.forms), ...(options.unreadForms ?? [])]);
  const waiting = new Map<string, number>();
  for (const fixture of fixtures) {
    const formId = fixture.formId ?? fromPointer(`/${fixture.file}`).at(-2) ?? '';
    const form = forms.get(formId);
    if (form) problems.push(...checkFixture(form, fixture));
    else if (broken.has(formId)) waiting.set(formId, (waiting.get(formId) ?? 0) + 1);
    else {
      problems.push({
        file: fixture.file,
        pointer: '',
        message:
          `no form ${formId} (a fixture's folder under tests/fixtures/forms/ is its form's id; ` +
          "a FORMS_DIR form's fixtures go in its own folder, <form-id>/fixtures/)",
      });
    }
  }
  for (const [formId, count] of waiting) {
    problems.push({
      file: schemaFile(formId),
      pointer: '',
      message: `${count} fixture${count === 1 ? '' : 's'} not checked until the ${formId} form loads`,
    });
  }
  return { problems, forms };
}

/** An unknown `ui:widget`, with the name meant when one is near. */
function unknownWidgetMessage(value: unknown): string {
  const unknown = `unknown widget ${JSON.stringify(value)}`;
  if (typeof value !== 'string') return unknown;
  const near = nearestName(value, WIDGET_NAMES);
  return near ? `${unknown}: did you mean "${near}"?` : unknown;
}

/** A form's bundled schema, or undefined when it does not bundle. */
export function bundledSchema(sources: FormSources, formId: string): unknown {
  const files = sources.forms[formId];
  try {
    return files ? bundleForm(files, sources.commons).schema : undefined;
  } catch {
    return undefined;
  }
}

/** Every check of one compiled form. */
function checkForm(formId: string, form: CompiledForm, assetFiles?: string[]): Problem[] {
  const root = checkRoot(formId, form.schema);
  if (root.length > 0) return root;
  const problems = [
    ...checkUnsupported(formId, form.schema),
    ...checkKeywords(formId, form.schema),
    // Compiled, so every keyword is known: what is left are messages for no keyword.
    ...unknownKeywordProblems(formId, form.schema),
  ];
  // What the walker cannot follow is said once; the other checks would trip on it.
  if (problems.length > 0) return problems;
  problems.push(...checkBrowserBuild(formId, form));
  {
    problems.push(...checkSchema(formId, form.schema));
    problems.push(...checkRuleMessages(formId, form.schema));
    problems.push(...checkKeywordMessages(formId, form.schema));
    problems.push(...checkUi(formId, form.schema, form.uiSchema));
    problems.push(...checkDocuments(formId, form.schema, assetFiles));
    problems.push(...checkSteps(formId, form.schema, form.uiSchema));
    for (const pointer of unaskedAnswers(form, form.example)) {
      problems.push({ file: exampleFile(formId), pointer, message: unaskedMessage([pointer]) });
    }
    const example = validateAnswers(form, form.example);
    for (const error of example.errors) {
      problems.push({ file: exampleFile(formId), pointer: error.path, message: error.message });
    }
  }
  return problems;
}
