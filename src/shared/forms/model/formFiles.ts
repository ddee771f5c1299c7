/**
 * Discovering forms: every folder under `schemas/` (except `common/`) is a form, its files
 * `<form-id>.schema.json`, `.ui.json` and `.example.json`. A new folder is a new form for
 * `forms check`, `validate`, `payload`, `wording`, the preview and the server with no code change.
 * Pure: the files come through a {@link FileTree} (the disk, a git revision, a test's folder).
 */
import type { CommonSchemas, FormFiles } from './bundleForm';
import { FORM_ID_PATTERN } from './compiledForm';
import { placeAt, type TextPlace } from './jsonPlaces';

/** Reads a file by its path relative to the root; `undefined` when it does not exist. */
export type ReadText = (file: string) => string | undefined;
/** Lists the entries of a folder (names only), relative to the root; [] when it does not exist. */
export type ListFiles = (folder: string) => string[];

export interface FileTree {
  read: ReadText;
  list: ListFiles;
  /** Where a file of the tree is on disk, when it is (a FORMS_DIR form's files are not under schemas/). */
  where?: (file: string) => string;
}

/** A problem with a file: the file (relative to the project root), where in it, and what. */
export interface Problem {
  file: string;
  /** A JSON pointer into the file ('' = the whole file). */
  pointer: string;
  message: string;
  /** Where in the file, when the pointer cannot say (a syntax error); else found from it. */
  place?: TextPlace;
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
    const { place } = jsonSyntaxFault(text, error);
    problems.push({ file, pointer: '', message: jsonSyntaxMessage(text, error), place });
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
 * Where a JSON text goes wrong and why, as an editor shows it (line and column, not character
 * position). A comma after the last entry (`{"a": 1,}`), which JSON does not allow, is named at
 * the comma itself, not where the parser noticed it on a later line.
 */
function jsonSyntaxFault(text: string, error: unknown): { place?: TextPlace; reason: string } {
  const raw = error instanceof Error ? error.message : String(error);
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(raw);
  const position = /at position (\d+)/.exec(raw)?.[1] ?? faultOffset(text);
  const reason = raw
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/,\s*(\.\.\.)?"[\s\S]*is not valid JSON$/, '')
    .replace(/\s*in JSON at position \d+.*$/, '')
    .replace(/\s*at position \d+.*$/, '');
  if (position !== undefined) {
    const comma = trailingComma(text, Number(position));
    if (comma !== undefined) {
      return {
        place: placeAt(text, comma),
        reason: 'a comma after the last entry (JSON allows none there): remove it',
      };
    }
  }
  if (lineColumn) {
    return { place: { line: Number(lineColumn[1]), column: Number(lineColumn[2]) }, reason };
  }
  if (position !== undefined) return { place: placeAt(text, Number(position)), reason };
  if (/end of JSON input/.test(raw)) {
    return { place: placeAt(text, text.length), reason: `${reason} (the file ends early)` };
  }
  return { reason };
}

/** The offset of a comma just before the `}` or `]` at `offset` (blanks between), if any. */
function trailingComma(text: string, offset: number): number | undefined {
  let at = offset;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  if (text[at] !== '}' && text[at] !== ']') return undefined;
  let before = offset - 1;
  while (before >= 0 && /\s/.test(text[before]!)) before--;
  return text[before] === ',' ? before : undefined;
}

/**
 * A JSON syntax error said by line and column ('not valid JSON at line 12, column 5: Unexpected
 * token }').
 */
export function jsonSyntaxMessage(text: string, error: unknown): string {
  const { place, reason } = jsonSyntaxFault(text, error);
  return `not valid JSON${place ? ` at line ${place.line}, column ${place.column}` : ''}: ${reason}`;
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
