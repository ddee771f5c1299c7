/**
 * The portal's forms for tests, compiled from schemas/ on disk once per test file, as the server
 * compiles them (Node's Ajv; the browser's precompiled build is tests/unit/forms/precompiled.test.ts').
 */
import type { CompiledForm } from '../src/shared/forms/model/compiledForm';
import type { FormSection } from '../src/shared/forms/model/steps';
import {
  compileForms,
  compileFormsOnDisk,
  diskTree,
  type FormCatalog,
} from '../src/shared/forms/model/compileNode';
import type { FormFiles } from '../src/shared/forms/model/bundleForm';
import { readFormSources, type FormSources } from '../src/shared/forms/model/formFiles';

let catalog: FormCatalog | undefined;

/** Every form of schemas/, by id. */
export function testForms(): FormCatalog {
  catalog ??= compileFormsOnDisk(process.cwd());
  return catalog;
}

/** One form of schemas/ by its folder name. */
export function testForm(id: string): CompiledForm {
  const form = testForms().get(id);
  if (!form) throw new Error(`No form ${id} under schemas/`);
  return form;
}

/** The files of schemas/ as read from disk (each call a fresh copy, for tests to edit). */
export function projectSources(): FormSources {
  return readFormSources(diskTree(process.cwd())).sources;
}

/**
 * A small form of a test's own, compiled as a folder `id` of schemas/ holding these files would
 * be (the common definitions not included): what SchemaForm and FormSession take.
 */
export function formOf(
  files: Pick<FormFiles, 'schema'> & Partial<FormFiles>,
  id = 'test-form',
): CompiledForm {
  const { uiSchema = {}, example = {} } = files;
  const { forms, problems } = compileForms({
    forms: { [id]: { ...files, uiSchema, example } },
    commons: {},
  });
  const form = forms.get(id);
  if (!form) throw new Error(problems.map((problem) => problem.message).join('\n'));
  return form;
}

/**
 * `form` with each step drawing only its sections that hold one of `keys`: the same schema,
 * uiSchema, validator and nested forms, so those questions go through the real renderer, widgets
 * and rules. For a test about a few questions: jsdom's label and style lookups (getByLabelText,
 * getByRole) and rendering grow with everything drawn, and a whole step of the business form is
 * ~20 sections.
 */
export function drawingOnly(form: CompiledForm, keys: readonly string[]): CompiledForm {
  const holds = (section: FormSection) => section.fields.some((field) => keys.includes(field));
  const steps = form.steps?.map((step) => ({ ...step, sections: step.sections.filter(holds) }));
  const drawn = new Set(steps?.flatMap((step) => step.sections.flatMap((s) => s.fields)));
  const missing = keys.filter((key) => !drawn.has(key));
  if (missing.length > 0) throw new Error(`No section of ${form.id} holds ${missing.join(', ')}`);
  return { ...form, steps };
}
