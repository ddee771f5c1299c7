/**
 * The forms this server validates: every folder under schemas/, compiled once per process at
 * start (a form that does not compile stops the start with one sentence per problem). The
 * catalog is handed to the app (`app.forms`) and from there to the routes that need a form.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  compileFormsOnDisk,
  compileValidator,
  type FormCatalog,
} from '../shared/forms/model/compileNode';
import { assembleForm, type CompiledForm } from '../shared/forms/model/compiledForm';
import { findFormVersion } from './db/formVersions';
import type { Queryable } from './db/transaction';

/** The project folder holding schemas/ (and assets/). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let compiled: FormCatalog | undefined;

/**
 * The portal's forms, compiled on first use and kept for the process: compiling is pure work
 * on files that do not change while it runs (a schema change is a deployment).
 */
export function portalForms(): FormCatalog {
  compiled ??= compileFormsOnDisk(PROJECT_ROOT, undefined, process.env.FORMS_DIR);
  return compiled;
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
