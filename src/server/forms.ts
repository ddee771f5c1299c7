/**
 * The forms this server validates: every folder under schemas/ (and FORMS_DIR), compiled once
 * per process at start (a folder that does not compile is left out and named in the log). The
 * catalog is handed to the app (`app.forms`) and from there to the routes that need a form.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkForms } from '../shared/forms/check/checkForms';
import {
  compileForms,
  compileValidator,
  diskTree,
  type FormCatalog,
} from '../shared/forms/model/compileNode';
import { readFormSources } from '../shared/forms/model/formFiles';
import { assembleForm, type CompiledForm } from '../shared/forms/model/compiledForm';
import { findFormVersion } from './db/formVersions';
import type { Queryable } from './db/transaction';

/** The project folder holding schemas/ (and assets/). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let compiled: FormCatalog | undefined;
let unavailable: ReadonlyMap<string, string[]> = new Map();

/**
 * The portal's forms, compiled on first use and kept for the process: compiling is pure work
 * on files that do not change while it runs (a schema change is a deployment). A form folder
 * that does not read or compile is left out (its page says the form is not available) and the
 * others serve; `unavailablePortalForms` names it with `forms check`'s reasons, for the log.
 */
export function portalForms(): FormCatalog {
  if (!compiled) {
    const loaded = loadForms(PROJECT_ROOT, process.env.FORMS_DIR);
    compiled = loaded.forms;
    unavailable = loaded.unavailable;
  }
  return compiled;
}

/** The form folders `portalForms` left out, by form id, each with `forms check`'s reasons. */
export function unavailablePortalForms(): ReadonlyMap<string, string[]> {
  portalForms();
  return unavailable;
}

/**
 * Every form under `root`/schemas (and `formsDir`) that reads and compiles; the others by id with
 * the reasons `forms check` gives for them (one line each: file, place, message).
 */
export function loadForms(
  root: string,
  formsDir?: string,
): { forms: FormCatalog; unavailable: Map<string, string[]> } {
  const { sources, problems: read } = readFormSources(diskTree(root, formsDir));
  const { forms, problems: failed } = compileForms(sources);
  const left = new Set(
    [...read, ...failed].map((problem) => problem.file.split('/')[1] ?? problem.file),
  );
  const unavailable = new Map<string, string[]>();
  if (left.size === 0) return { forms, unavailable };
  // check's own words for what is wrong (a JSON syntax error by line, a $ref at its pointer…).
  const { problems: checked } = checkForms(sources, [], {
    unreadForms: read.map((problem) => problem.file.split('/')[1] ?? ''),
  });
  for (const problem of [...read, ...checked]) {
    const formId = problem.file.split('/')[1] ?? problem.file;
    if (!left.has(formId)) continue;
    const line = `${problem.file}${problem.pointer ? ` ${problem.pointer}` : ''}: ${problem.message}`;
    unavailable.set(formId, [...(unavailable.get(formId) ?? []), line]);
  }
  for (const formId of left) {
    if (!unavailable.has(formId)) unavailable.set(formId, ['the form does not compile']);
  }
  return { forms, unavailable };
}

/** Earlier versions compiled, by form id and schema hash: a cache only (the database keeps them). */
const earlierVersions = new Map<string, CompiledForm>();
const EARLIER_VERSIONS_KEPT = 32;

/**
 * The form as it was under `schemaHash`: the served form when that is its version, else the
 * version `form_versions` holds, compiled (its affiliated-person dialog ordered as the served
 * form's, which only orders the rows); null when this database never saw that version.
 */
export async function formOfVersion(
  db: Queryable,
  served: CompiledForm,
  schemaHash: string,
): Promise<CompiledForm | null> {
  if (schemaHash === served.hash) return served;
  const key = `${served.id}/${schemaHash}`;
  const cached = earlierVersions.get(key);
  if (cached) return cached;
  const stored = await findFormVersion(db, schemaHash);
  if (!stored || stored.formId !== served.id) return null;
  const bundled = {
    schema: stored.schema,
    uiSchema: stored.uiSchema,
    example: {},
    hash: schemaHash,
  };
  const form = assembleForm(served.id, bundled, compileValidator(stored.schema), served.nested);
  if (earlierVersions.size >= EARLIER_VERSIONS_KEPT) {
    earlierVersions.delete(earlierVersions.keys().next().value!);
  }
  earlierVersions.set(key, form);
  return form;
}
