/**
 * Node side (server, CLI, tests): compiles forms from their files with the one Ajv configuration.
 * The browser never imports this module (compiling needs `unsafe-eval`); it imports
 * `virtual:forms/<form-id>` instead (precompiledForm.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { RJSF_VALIDATOR_OPTIONS } from '../validation/ajvConfig';
import { bundleForm, type BundledForm } from './bundleForm';
import { assembleForm, nestedFormIds, type CompiledForm } from './compiledForm';
import type { FormValidator } from './schemaTypes';
import {
  formFile,
  readFormSources,
  type FileTree,
  type FormSources,
  type Problem,
} from './formFiles';

/** Forms by id, as compiled from one set of files. */
export type FormCatalog = ReadonlyMap<string, CompiledForm>;

/** A compiled rjsf validator for a bundled schema; compiling the root up front surfaces errors. */
export function compileValidator(schema: BundledForm['schema']): FormValidator {
  const validator = customizeValidator<Record<string, unknown>, RJSFSchema>(RJSF_VALIDATOR_OPTIONS);
  // rawValidation compiles (and caches) the root schema; rjsf reports compile errors, not throws.
  const { validationError } = validator.rawValidation(schema as RJSFSchema, {});
  if (validationError) throw validationError;
  return validator;
}

/**
 * Compiles every form of `sources` (or those of `only` and the forms they draw inside them). A
 * form that does not bundle or compile is left out with its problem (the error as thrown, for
 * `forms check` to word); the others compile regardless.
 */
export function compileForms(
  sources: FormSources,
  only?: readonly string[],
): { forms: Map<string, CompiledForm>; problems: Problem[]; errors: Map<string, unknown> } {
  const forms = new Map<string, CompiledForm>();
  const problems: Problem[] = [];
  const errors = new Map<string, unknown>();
  const visiting = new Set<string>();
  const build = (id: string): CompiledForm | undefined => {
    if (forms.has(id) || errors.has(id)) return forms.get(id);
    const files = sources.forms[id];
    if (!files || visiting.has(id)) return undefined;
    visiting.add(id);
    try {
      const bundled = bundleForm(files, sources.commons);
      const nested: Record<string, CompiledForm> = {};
      for (const nestedId of nestedFormIds(bundled.uiSchema)) {
        const form = nestedId === id ? undefined : build(nestedId);
        if (form) nested[nestedId] = form;
      }
      const form = assembleForm(id, bundled, compileValidator(bundled.schema), nested);
      forms.set(id, form);
      return form;
    } catch (error) {
      errors.set(id, error);
      problems.push({ file: formFile(id, 'schema'), pointer: '', message: String(error) });
      return undefined;
    } finally {
      visiting.delete(id);
    }
  };
  for (const id of only ?? Object.keys(sources.forms).sort()) build(id);
  return { forms, problems, errors };
}

/**
 * The files under `root` (a project folder holding schemas/), read from disk. `formsDir` (the
 * `FORMS_DIR` setting) is an extra forms folder: each of its folders is a form as if it sat under
 * schemas/ (one of the same name there is replaced); schemas/common stays the common schemas.
 */
export function diskTree(root: string, formsDir?: string): FileTree {
  const extra = formsDir ? path.resolve(root, formsDir) : undefined;
  const listDir = (full: string) =>
    fs.existsSync(full) && fs.statSync(full).isDirectory() ? fs.readdirSync(full).sort() : [];
  const extraForms = () => (extra ? listDir(extra).filter((name) => name !== 'common') : []);
  /** Where a path of the tree is on disk: an extra form's files come from `formsDir`. */
  const onDisk = (file: string) => {
    const [top, form, ...rest] = file.split('/');
    if (extra && top === 'schemas' && form && extraForms().includes(form)) {
      return path.join(extra, form, ...rest);
    }
    return path.join(root, file);
  };
  return {
    where: onDisk,
    read: (file) => {
      const full = onDisk(file);
      return fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : undefined;
    },
    list: (folder) => {
      const names = listDir(onDisk(folder));
      const trimmed = folder.replace(/\/+$/, '');
      return trimmed === 'schemas' ? [...new Set([...names, ...extraForms()])].sort() : names;
    },
  };
}

/**
 * Every form under `root`/schemas compiled; throws one message naming each broken form (the
 * server refuses to start with a form it cannot validate: `npm run forms -- check` says why).
 */
export function compileFormsOnDisk(
  root: string,
  only?: readonly string[],
  formsDir?: string,
): FormCatalog {
  const { sources, problems: read } = readFormSources(diskTree(root, formsDir));
  const { forms, problems } = compileForms(sources, only);
  const all = [...read, ...problems];
  if (all.length > 0) {
    throw new Error(
      `The forms under ${path.join(root, 'schemas')} do not load (run \`npm run forms -- check\`):\n` +
        all.map((p) => `${p.file}${p.pointer ? ` ${p.pointer}` : ''}: ${p.message}`).join('\n'),
    );
  }
  return forms;
}
