/**
 * Discovering forms: every folder under `schemas/` (except `common/`) is a form, its files
 * `<form-id>.schema.json`, `.ui.json` and `.example.json`. A new folder is a new form for
 * `forms check`, `validate`, `payload`, `wording`, the preview and the server with no code change.
 * Pure: the files come through a {@link FileTree} (the disk, a git revision, a test's folder).
 */
import type { CommonSchemas, FormFiles } from './bundleForm';
import { FORM_ID_PATTERN } from './compiledForm';

/** Reads a file by its path relative to the root; `undefined` when it does not exist. */
export type ReadText = (file: string) => string | undefined;
/** Lists the entries of a folder (names only), relative to the root; [] when it does not exist. */
export type ListFiles = (folder: string) => string[];

export interface FileTree {
  read: ReadText;
  list: ListFiles;
}

/** A problem with a file: the file (relative to the project root), where in it, and what. */
export interface Problem {
  file: string;
  /** A JSON pointer into the file ('' = the whole file). */
  pointer: string;
  message: string;
}

/** The files forms are bundled from: each form's three files and the common schemas. */
export interface FormSources {
  forms: Record<string, FormFiles>;
  commons: CommonSchemas;
}

const SCHEMAS_FOLDER = 'schemas';
const COMMON_FOLDER = 'common';

export const formFile = (formId: string, kind: 'schema' | 'ui' | 'example') =>
  `${SCHEMAS_FOLDER}/${formId}/${formId}.${kind}.json`;

/** A JSON file of the tree, or undefined with a problem naming it (missing, not JSON). */
export function parse(tree: FileTree, file: string, problems: Problem[]): unknown {
  const text = tree.read(file);
  if (text === undefined) {
    problems.push({ file, pointer: '', message: 'file is missing' });
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    problems.push({ file, pointer: '', message: jsonSyntaxMessage(text, error) });
    return undefined;
  }
}

/** Whether a beginning of a JSON text holds no fault yet (it may only end early). */
function soundPrefix(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    if (/end of JSON input|Unterminated/.test(message)) return true;
    const at = /at position (\d+)/.exec(message);
    return !!at && Number(at[1]) >= prefix.length;
  }
}

/**
 * Where a JSON text goes wrong, for the messages that do not say (Node 20's 'Unexpected token
 * }, "…" is not valid JSON'): the shortest beginning that holds the fault, found by halving.
 */
function faultOffset(text: string): number | undefined {
  if (soundPrefix(text)) return undefined;
  let [low, high] = [0, text.length];
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (soundPrefix(text.slice(0, middle + 1))) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A JSON syntax error said by line and column, as an editor shows them ('not valid JSON at line
 * 12, column 5: Unexpected token }'), not by character position.
 */
export function jsonSyntaxMessage(text: string, error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(raw);
  const position = /at position (\d+)/.exec(raw)?.[1] ?? faultOffset(text);
  let place = '';
  if (lineColumn) place = ` at line ${lineColumn[1]}, column ${lineColumn[2]}`;
  else if (position !== undefined) {
    const before = text.slice(0, Number(position));
    const lines = before.split('\n');
    place = ` at line ${lines.length}, column ${lines.at(-1)!.length + 1}`;
  } else if (/end of JSON input/.test(raw)) {
    const lines = text.split('\n');
    place = ` at line ${lines.length}, column ${lines.at(-1)!.length + 1} (the file ends early)`;
  }
  const reason = raw
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/,\s*(\.\.\.)?"[\s\S]*is not valid JSON$/, '')
    .replace(/\s*in JSON at position \d+.*$/, '')
    .replace(/\s*at position \d+.*$/, '');
  return `not valid JSON${place}: ${reason}`;
}

/** The schema files of the schemas/common folder. */
export function commonFiles(tree: FileTree): string[] {
  return tree
    .list(`${SCHEMAS_FOLDER}/${COMMON_FOLDER}`)
    .filter((name) => name.endsWith('.schema.json'))
    .map((name) => `${SCHEMAS_FOLDER}/${COMMON_FOLDER}/${name}`);
}

/** The form ids: the folders under schemas/ holding a `<folder>.schema.json`, common aside. */
export function formFolders(tree: FileTree): string[] {
  return tree
    .list(SCHEMAS_FOLDER)
    .filter((name) => name !== COMMON_FOLDER)
    .filter((name) => tree.list(`${SCHEMAS_FOLDER}/${name}`).includes(`${name}.schema.json`))
    .sort();
}

/**
 * Every form with a folder under schemas/, and the common schemas. A form with a missing or
 * malformed file, or a folder name that cannot be a form id, is left out and its problem
 * reported; the other forms are read.
 */
export function readFormSources(tree: FileTree): { sources: FormSources; problems: Problem[] } {
  const problems: Problem[] = [];
  const commons: CommonSchemas = {};
  for (const file of commonFiles(tree)) {
    const content = parse(tree, file, problems);
    if (content !== undefined) commons[file.slice(file.lastIndexOf('/') + 1)] = content;
  }
  const forms: Record<string, FormFiles> = {};
  for (const formId of formFolders(tree)) {
    if (!FORM_ID_PATTERN.test(formId)) {
      problems.push({
        file: `${SCHEMAS_FOLDER}/${formId}`,
        pointer: '',
        message: `a form folder's name is its id, in lower-case words joined by hyphens (rename it, e.g. ${formId
          .replace(/([a-z])([A-Z])/g, '$1-$2')
          .replace(/[^A-Za-z0-9]+/g, '-')
          .toLowerCase()})`,
      });
      continue;
    }
    const [schema, uiSchema, example] = (['schema', 'ui', 'example'] as const).map((kind) =>
      parse(tree, formFile(formId, kind), problems),
    );
    if (schema !== undefined && uiSchema !== undefined && example !== undefined) {
      forms[formId] = { schema, uiSchema, example };
    }
  }
  return { sources: { forms, commons }, problems };
}
