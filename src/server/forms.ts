/**
 * The forms this server validates: every folder under schemas/, compiled once per process at
 * start (a form that does not compile stops the start with one sentence per problem). The
 * catalog is handed to the app (`app.forms`) and from there to the routes that need a form.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFormsOnDisk, type FormCatalog } from '../shared/forms/model/compileNode';

/** The project folder holding schemas/ (and assets/). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let compiled: FormCatalog | undefined;

/**
 * The portal's forms, compiled on first use and kept for the process: compiling is pure work
 * on files that do not change while it runs (a schema change is a deployment).
 */
export function portalForms(): FormCatalog {
  compiled ??= compileFormsOnDisk(PROJECT_ROOT);
  return compiled;
}
