/**
 * `forms check`'s problems at their true places (issue 37 §4): the file as it is on disk (a
 * `FORMS_DIR` form's own folder, not `schemas/<id>/`), a common definition's problem in its
 * common file, and the line and column of the pointer, so each can be opened where it is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { placeFinder, pointerAt } from '../../shared/forms/model/jsonPlaces';
import type { FileTree, FormSources, Problem } from '../../shared/forms/model/formFiles';
import { isPlainObject } from '../../shared/forms/model/schemaTypes';
import { fromPointer } from '../../shared/forms/model/pointer';

/**
 * A bundled schema's common definition (`/$defs/address/…`, copied from schemas/common) is the
 * common file's: the problem moves there, at the same pointer.
 */
function inCommonFile(problem: Problem, sources: FormSources): Problem {
  const match = /^schemas\/([^/]+)\/\1\.schema\.json$/.exec(problem.file);
  const [defs, name] = fromPointer(problem.pointer);
  if (!match || defs !== '$defs' || !name) return problem;
  const own = sources.forms[match[1]!]?.schema;
  if (isPlainObject(own) && isPlainObject(own.$defs) && name in own.$defs) return problem;
  const common = Object.entries(sources.commons).find(
    ([, schema]) => isPlainObject(schema) && isPlainObject(schema.$defs) && name in schema.$defs,
  );
  return common ? { ...problem, file: `schemas/common/${common[0]}` } : problem;
}

/** Paths as the user can open them from where they ran the command. */
export function fromCwd(full: string): string {
  const relative = path.relative(process.cwd(), full);
  return relative.startsWith('..') || path.isAbsolute(relative) ? full : relative;
}

/** A problem at its place; `noLine` says why it has no line (its file does not exist). */
interface PlacedProblem extends Problem {
  noLine?: string;
}

/**
 * Each problem with its file on disk (as seen from here), its pointer and its line and column: a
 * problem of the whole file at its root value (line 1, column 1 when the file does not parse),
 * a syntax error at the pointer of the value it is in; a file that does not exist says so.
 */
export function placeProblems(
  problems: Problem[],
  tree: FileTree,
  root: string,
  sources: FormSources,
): PlacedProblem[] {
  const texts = new Map<string, string | undefined>();
  const finders = new Map<string, ReturnType<typeof placeFinder>>();
  const where = (file: string) => tree.where?.(file) ?? path.join(root, file);
  const folder = (file: string) => {
    const full = where(file);
    return fs.existsSync(full) && fs.statSync(full).isDirectory();
  };
  const textOf = (file: string) => {
    if (!texts.has(file)) {
      const text = folder(file) ? undefined : tree.read(file);
      texts.set(file, text);
      finders.set(file, text === undefined ? undefined : placeFinder(text));
    }
    return texts.get(file);
  };
  const placed = problems.map((original): PlacedProblem => {
    const problem = inCommonFile(original, sources);
    const file = fromCwd(where(problem.file));
    const text = textOf(problem.file);
    if (text === undefined) {
      const noLine = folder(problem.file) ? 'a folder, not a file' : 'there is no such file';
      return { ...problem, file, noLine };
    }
    const find = finders.get(problem.file);
    // A file that does not parse: its syntax error is at its place, in the value it breaks.
    if (!find) {
      const place = problem.place ?? { line: 1, column: 1 };
      const pointer = problem.place && !problem.pointer ? pointerAt(text, place) : problem.pointer;
      return { ...problem, file, pointer, place };
    }
    return { ...problem, file, place: problem.place ?? find(problem.pointer) };
  });
  // A common definition's problem is found through every form using it: said once.
  const said = new Set<string>();
  return placed.filter(({ file, pointer, message }) => {
    const key = `${file}\n${pointer}\n${message}`;
    return !said.has(key) && said.add(key);
  });
}

/**
 * A problem's line: where it is in its file (the JSON pointer, "" for the whole file, with its
 * line and column, or why it has none), then what.
 */
function problemLine({ pointer, place, message, noLine }: PlacedProblem): string {
  const at = place ? `line ${place.line}, column ${place.column}` : undefined;
  // A syntax error's message says its place: said once, in front.
  const what = at ? message.replace(` at ${at}`, '') : message;
  const where = !at
    ? `${pointer || '""'} (no line: ${noLine ?? 'not found in the file'})`
    : pointer
      ? `${pointer} (${at})`
      : `"" (the whole file, ${at})`;
  // A message of several lines (a fixture's diff) keeps its lines under the pointer.
  return `  ${where}  ${what.split('\n').join('\n      ')}`;
}

/** Problems grouped by file, each at its place, as check and validate print them. */
export function problemLines(problems: PlacedProblem[]): string[] {
  const byFile = new Map<string, PlacedProblem[]>();
  for (const problem of problems) {
    byFile.set(problem.file, [...(byFile.get(problem.file) ?? []), problem]);
  }
  return [...byFile].flatMap(([file, list]) => [file, ...list.map(problemLine)]);
}
