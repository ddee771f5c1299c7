/**
 * `forms check`'s view of what run time builds (Node only): the browser's validator built the way
 * the Vite plugin builds it (Ajv standalone code, here evaluated in Node), the constructs the
 * walker does not follow refused by name, and a build failure said in a sentence (never in Ajv's
 * words) naming what to write instead.
 */
import { createRequire } from 'node:module';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import type { RJSFSchema } from '@rjsf/utils';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import * as ruleAdapters from '../validation/ruleAdapters';
import { RULES_MODULE_ID } from '../validation/ruleAdapters';
import { isPlainObject, type JsonSchema } from '../model/schemaTypes';
import { deref, isChoice } from '../walk/schemaWalk';
import { standaloneValidatorCode } from '../validation/standalone';
import { validateAnswers } from '../validation/validateAnswers';
import { assembleForm, type CompiledForm } from '../model/compiledForm';
import type { FormValidator } from '../model/schemaTypes';
import { formFile, type Problem } from '../model/formFiles';
import { FormSchemaError } from '../model/bundleForm';
import { toPointer } from '../model/pointer';

const requireModule = createRequire(import.meta.url);

/**
 * The validator the browser runs for a bundled schema: the standalone code the Vite plugin emits,
 * its `require`s resolved as the bundler resolves them. Throws where the browser build would.
 */
function browserValidator(schema: JsonSchema): FormValidator {
  const code = standaloneValidatorCode(schema);
  const module: { exports: ValidatorFunctions } = { exports: {} };
  const load = (id: string): unknown => (id === RULES_MODULE_ID ? ruleAdapters : requireModule(id));
  // The code is Ajv's own output for our schema, as the browser bundle carries it.
  new Function('require', 'module', 'exports', code)(load, module, module.exports);
  return createPrecompiledValidator(
    module.exports,
    schema as RJSFSchema,
  ) as unknown as FormValidator;
}

/** Built once per compiled form: check builds it, and the preview and tests ask again. */
const browserForms = new WeakMap<CompiledForm, CompiledForm>();

/** A compiled form as the browser has it: the same files, the browser's validator. */
export function browserForm(form: CompiledForm): CompiledForm {
  let browser = browserForms.get(form);
  if (!browser) {
    const bundled = { schema: form.schema, uiSchema: form.uiSchema, example: form.example };
    browser = assembleForm(
      form.id,
      { ...bundled, hash: form.hash },
      browserValidator(form.schema),
      form.nested,
    );
    browserForms.set(form, browser);
  }
  return browser;
}

/** The browser's validator builds, and gives the example the messages the server gives it. */
export function checkBrowserBuild(formId: string, form: CompiledForm): Problem[] {
  const file = formFile(formId, 'schema');
  let browser: CompiledForm;
  try {
    browser = browserForm(form);
  } catch (error) {
    return [
      {
        file,
        pointer: '',
        message: `the browser's validator cannot be built: ${buildProblem(error)}`,
      },
    ];
  }
  for (const answers of [form.example, {}]) {
    const server = validateAnswers(form, answers);
    let inBrowser;
    try {
      inBrowser = validateAnswers(browser, answers);
    } catch (error) {
      return [
        { file, pointer: '', message: `the browser cannot validate: ${buildProblem(error)}` },
      ];
    }
    if (JSON.stringify(server) !== JSON.stringify(inBrowser)) {
      return [
        {
          file,
          pointer: '',
          message: 'the browser and the server give different messages for the same answers',
        },
      ];
    }
  }
  return [];
}

/** Keywords the engine does not follow, each with what to write instead. */
const UNSUPPORTED: Record<string, string> = {
  $anchor: 'refer to the definition by its place instead (#/$defs/<name>)',
  $dynamicRef: 'refer to the definition by its place instead (#/$defs/<name>)',
  $recursiveRef: 'refer to the definition by its place instead (#/$defs/<name>)',
  prefixItems:
    'write the tuple as "items": [ … ] (draft-07), with "additionalItems" for later items',
  unevaluatedProperties:
    'list the answers in properties, patternProperties or additionalProperties',
  unevaluatedItems: 'give the list items (and additionalItems for a tuple)',
};

/**
 * What the walker cannot follow, each named with its file and pointer and what to write instead:
 * a reference outside the form, `$id` references, 2019/2020 keywords draft-07 Ajv does not know,
 * additional answers without a schema (no prompt to send them with).
 */
export function checkUnsupported(formId: string, root: JsonSchema): Problem[] {
  const file = formFile(formId, 'schema');
  const problems: Problem[] = [];
  const visit = (node: unknown, keys: string[], annotation: boolean) => {
    if (Array.isArray(node))
      node.forEach((item, i) => visit(item, [...keys, String(i)], annotation));
    if (!isPlainObject(node) || annotation) return;
    for (const [key, value] of Object.entries(node)) {
      const pointer = toPointer([...keys, key]);
      const instead = UNSUPPORTED[key];
      if (instead && !(key === '$id' && keys.length === 0)) {
        problems.push({ file, pointer, message: `${key} is not supported: ${instead}` });
      } else if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
        problems.push({
          file,
          pointer,
          message:
            `the reference ${value} points outside the form: refer to a definition of the form ` +
            '(#/$defs/<name>) or of a common file (../common/<file>.schema.json#/$defs/<name>)',
        });
      } else if (key === 'format' && value === 'data-url') {
        problems.push({
          file,
          pointer,
          message:
            'a file inside the answers (format data-url) is not supported: a file is chosen with ' +
            'the portal\'s file picker and sent beside the answers; write "$ref": ' +
            '"../common/file.schema.json#/$defs/pdfFile" (or imageFile) instead',
        });
      } else if (
        key === 'additionalProperties' &&
        isPlainObject(value) &&
        !isChoice(node) &&
        !titleOf(value as JsonSchema, root)
      ) {
        problems.push({
          file,
          pointer,
          message:
            'additional answers need a title (the prompt each is sent with, beside its key): ' +
            'write "additionalProperties": { "title": …, "type": … }',
        });
      } else if (key === 'additionalProperties' && value === true && !isChoice(node)) {
        problems.push({
          file,
          pointer,
          message:
            'additional answers need a schema with a title (the prompt each is sent with): ' +
            'write "additionalProperties": { "title": …, "type": … }',
        });
      }
      const skip =
        key.startsWith('x-') ||
        ['errorMessage', 'default', 'examples', 'const', 'enum'].includes(key);
      visit(value, [...keys, key], skip);
    }
  };
  visit(root, [], false);
  return problems;
}

/** A sentence for a form that does not bundle or compile: what is wrong and what to write. */
export function buildProblem(error: unknown): string {
  if (error instanceof FormSchemaError) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  const unknown = /unknown keyword: "([^"]+)"/.exec(text);
  if (unknown) {
    return (
      `unknown keyword ${unknown[1]}: JSON Schema draft-07 has no such keyword ` +
      '(an annotation of the portal starts with x-; see schemas/README.md)'
    );
  }
  const unresolved =
    /can't resolve reference (\S+)/.exec(text) ?? /Unresolved reference (\S+)/.exec(text);
  if (unresolved && !unresolved[1]!.startsWith('#')) {
    return (
      `the reference ${unresolved[1]} points outside the form: refer to a definition of the form ` +
      '(#/$defs/<name>) or of a common file (../common/<file>.schema.json#/$defs/<name>)'
    );
  }
  if (unresolved) {
    return `the reference ${unresolved[1]} points to no definition (write #/$defs/<name> of a definition the form has)`;
  }
  const both = /Definition (\S+) is both common and the form's own/.exec(text);
  if (both)
    return `the definition ${both[1]} is both a common one and the form's own: rename the form's`;
  const tuple = /"items" is (\d+)-tuple/.exec(text);
  if (tuple) return 'a tuple needs "additionalItems" (false, or a schema for later items)';
  const keywordValue = /keyword (\S+) value is invalid|schema is invalid: (.+)/.exec(text);
  if (keywordValue) {
    return `a keyword's value is not what JSON Schema allows there (${keywordValue[1] ?? keywordValue[2]})`;
  }
  return `the schema cannot be compiled (${text.split('\n')[0]})`;
}

/** A schema's title, references followed (a reference that points nowhere has none). */
function titleOf(schema: JsonSchema, root: JsonSchema): string | undefined {
  try {
    return deref(schema, root).title;
  } catch {
    return undefined;
  }
}

/** What a form's root must be, said when it is not: an object of questions. */
export const ROOT_NOT_OBJECT =
  'a form\'s root must be an object of questions ("type": "object" with "properties"); ' +
  'put a single answer, a list or a choice inside it as one of its properties';

/** The form's root is an object holding questions, or the problem saying it is not. */
export function checkRoot(formId: string, root: JsonSchema): Problem[] {
  // A root without a `type` is refused too (issue 37 §2): validate and payload could not read
  // its answers as questions, though check let it pass.
  let resolved = root;
  try {
    resolved = deref(root, root);
  } catch {
    // A reference that points nowhere is said by the compile step.
  }
  if (resolved.type === 'object' && !isChoice(resolved)) return [];
  const pointer = root.type === undefined ? '' : '/type';
  return [{ file: formFile(formId, 'schema'), pointer, message: ROOT_NOT_OBJECT }];
}
