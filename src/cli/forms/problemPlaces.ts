/**
 * `forms check`'s problems at their true places (issue 37 §4): the file as it is on disk (a
 * `FORMS_DIR` form's own folder, not `schemas/<id>/`), a common definition's problem in its
 * common file, and the line and column of the pointer, so each can be opened where it is.
 */
import path from 'node:path';
import { placeFinder } from '../../shared/forms/model/jsonPlaces';
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

/** Each problem with its file on disk (as seen from here) and its line and column. */
export function placeProblems(
  problems: Problem[],
  tree: FileTree,
  root: string,
  sources: FormSources,
): Problem[] {
  const finders = new Map<string, ReturnType<typeof placeFinder>>();
  const finder = (file: string) => {
    if (!finders.has(file)) {
      const text = tree.read(file);
      finders.set(file, text === undefined ? undefined : placeFinder(text));
    }
    return finders.get(file);
  };
  const placed = problems.map((original) => {
    const problem = inCommonFile(original, sources);
    const place =
      problem.place ?? (problem.pointer ? finder(problem.file)?.(problem.pointer) : undefined);
    const full = tree.where?.(problem.file) ?? path.join(root, problem.file);
    return { ...problem, file: fromCwd(full), ...(place ? { place } : {}) };
  });
  // A common definition's problem is found through every form using it: said once.
  const said = new Set<string>();
  return placed.filter(({ file, pointer, message }) => {
    const key = `${file}\n${pointer}\n${message}`;
    return !said.has(key) && said.add(key);
  });
}

/**
 * A problem's line: where it is in its file (pointer, line and column, as far as they are
 * known), then what.
 */
function problemLine({ pointer, place, message }: Problem): string {
  const at = place ? `line ${place.line}, column ${place.column}` : '';
  // A syntax error's message says its place: said once, in front.
  const what = at && !pointer ? message.replace(` at ${at}`, '') : message;
  const where = pointer && at ? `${pointer} (${at})` : pointer || at || '(whole file)';
  // A message of several lines (a fixture's diff) keeps its lines under the pointer.
  return `  ${where}  ${what.split('\n').join('\n      ')}`;
}

/** Problems grouped by file, each at its place, as check and validate print them. */
export function problemLines(problems: Problem[]): string[] {
  const byFile = new Map<string, Problem[]>();
  for (const problem of problems) {
    byFile.set(problem.file, [...(byFile.get(problem.file) ?? []), problem]);
  }
  return [...byFile].flatMap(([file, list]) => [file, ...list.map(problemLine)]);
}
