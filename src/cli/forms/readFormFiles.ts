/**
 * The schema and fixture files as they are now, read from a project root on disk or from a git
 * revision (`git show <ref>:schemas/…`). Unreadable or malformed files become problems with the
 * file named, so `forms check` reports them like any other.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Fixture } from '../../shared/forms/check/checkForms';
import { GOLDEN_FOLDER, type Golden } from '../../shared/forms/check/goldenPayloads';
import { diskTree } from '../../shared/forms/model/compileNode';
import {
  formFolders,
  parse,
  type FileTree,
  type Problem,
} from '../../shared/forms/model/formFiles';

export {
  commonFiles,
  formFile,
  formFolders,
  readFormSources,
  type FileTree,
} from '../../shared/forms/model/formFiles';
export { diskTree };

const git = (cwd: string, args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A `FORMS_DIR` folder as a path inside the repository at `top`; undefined when outside it. */
export function formsDirInRepo(top: string, root: string, formsDir?: string): string | undefined {
  if (!formsDir) return undefined;
  const inside = path.relative(top, path.resolve(root, formsDir)).split(path.sep).join('/');
  return inside && !inside.startsWith('..') && !path.isAbsolute(inside) ? inside : undefined;
}

/** The top folder of the git repository holding `cwd`. */
export const repositoryTop = (cwd: string) => git(cwd, ['rev-parse', '--show-toplevel']).trim();

/**
 * The files of a git revision of the repository at `cwd` (paths relative to its top level).
 * `formsDir` (a `FORMS_DIR` folder inside the repository, relative to its top) adds its folders
 * as forms, as diskTree does: `schemas/<form-id>/…` read from `<formsDir>/<form-id>/…`.
 */
export function gitTree(cwd: string, ref: string, formsDir?: string): FileTree {
  const top = repositoryTop(cwd);
  const files = git(top, [
    'ls-tree',
    '-r',
    '--name-only',
    ref,
    '--',
    'schemas',
    ...(formsDir ? [formsDir] : []),
  ])
    .split('\n')
    .filter(Boolean);
  const entries = (folder: string) => [
    ...new Set(
      files
        .filter((file) => file.startsWith(`${folder}/`))
        .map((file) => file.slice(folder.length + 1).split('/')[0]!),
    ),
  ];
  const extraForms = formsDir ? entries(formsDir).filter((name) => name !== 'common') : [];
  const inRepo = (file: string) => {
    const [head, form, ...rest] = file.split('/');
    return formsDir && head === 'schemas' && form && extraForms.includes(form)
      ? [formsDir, form, ...rest].join('/')
      : file;
  };
  return {
    where: (file) => path.join(top, inRepo(file)),
    read: (file) =>
      files.includes(inRepo(file)) ? git(top, ['show', `${ref}:${inRepo(file)}`]) : undefined,
    // A folder's entries: its files and its sub-folders (a form folder under schemas/).
    list: (folder) => {
      const names = entries(inRepo(folder.replace(/\/+$/, '')));
      return folder.replace(/\/+$/, '') === 'schemas'
        ? [...new Set([...names, ...extraForms])].sort()
        : names.sort();
    },
  };
}

/** Resolves a git ref to a commit id; throws with git's message when it names none. */
export function resolveRevision(cwd: string, ref: string): string {
  return git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim();
}

const FIXTURES_FOLDER = 'tests/fixtures/forms';

/**
 * Every fixture: `tests/fixtures/forms/<form-id>/*.json`, and those a form folder carries in its
 * own `fixtures/` (`schemas/<form-id>/fixtures/`, or a `FORMS_DIR` form's folder: they travel
 * with the form, and check runs them whenever it sees the form). A `*.golden.json` there is a
 * golden payload (readGoldens), not a fixture.
 */
export function readFixtures(tree: FileTree): { fixtures: Fixture[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const fixtures: Fixture[] = [];
  const read = (folder: string, formId: string) => {
    for (const name of tree.list(folder)) {
      if (!name.endsWith('.json') || name.endsWith(GOLDEN_SUFFIX)) continue;
      const file = path.posix.join(folder, name);
      const content = parse(tree, file, problems);
      if (content !== undefined) fixtures.push({ file, content, formId });
    }
  };
  for (const formId of tree.list(FIXTURES_FOLDER)) read(`${FIXTURES_FOLDER}/${formId}`, formId);
  for (const formId of formFolders(tree)) read(`schemas/${formId}/fixtures`, formId);
  return { fixtures, problems };
}

const GOLDEN_SUFFIX = '.golden.json';

/**
 * The golden payload files: `tests/fixtures/payloads/<form-id>[.<case>].golden.json`, and the
 * `*.golden.json` a form folder carries in its own `fixtures/` (a `FORMS_DIR` form's travel with
 * it, as its fixtures do).
 */
export function readGoldens(tree: FileTree): { goldens: Golden[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const goldens: Golden[] = [];
  const read = (folder: string, formId?: string) => {
    for (const name of tree.list(folder)) {
      if (!name.endsWith(GOLDEN_SUFFIX)) continue;
      const file = `${folder}/${name}`;
      const content = parse(tree, file, problems);
      if (content !== undefined) goldens.push({ file, content, ...(formId ? { formId } : {}) });
    }
  };
  read(GOLDEN_FOLDER);
  for (const formId of formFolders(tree)) read(`schemas/${formId}/fixtures`, formId);
  return { goldens, problems };
}
