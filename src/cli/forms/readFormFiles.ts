/**
 * The schema and fixture files as they are now, read from a project root on disk or from a git
 * revision (`git show <ref>:schemas/…`). Unreadable or malformed files become problems with the
 * file named, so `forms check` reports them like any other.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Fixture, Problem } from '../../shared/forms/checkForms';
import type { FormSources } from '../../shared/forms/loadForm';
import { FORM_IDS, type FormId } from '../../shared/forms/types';

/** Reads a file by its path relative to the root; `undefined` when it does not exist. */
export type ReadText = (file: string) => string | undefined;
/** Lists the files of a folder (names only), relative to the root; [] when it does not exist. */
export type ListFiles = (folder: string) => string[];

export interface FileTree {
  read: ReadText;
  list: ListFiles;
}

/** The working tree under `root`. */
export function diskTree(root: string): FileTree {
  return {
    read: (file) => {
      const full = path.join(root, file);
      return fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : undefined;
    },
    list: (folder) => {
      const full = path.join(root, folder);
      return fs.existsSync(full) && fs.statSync(full).isDirectory()
        ? fs.readdirSync(full).sort()
        : [];
    },
  };
}

const git = (cwd: string, args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The files of a git revision of the repository at `cwd` (paths relative to its top level). */
export function gitTree(cwd: string, ref: string): FileTree {
  const top = git(cwd, ['rev-parse', '--show-toplevel']).trim();
  const files = git(top, ['ls-tree', '-r', '--name-only', ref, '--', 'schemas']).split('\n');
  return {
    read: (file) => (files.includes(file) ? git(top, ['show', `${ref}:${file}`]) : undefined),
    list: (folder) =>
      files
        .filter((file) => path.posix.dirname(file) === folder)
        .map((file) => path.posix.basename(file))
        .sort(),
  };
}

/** Resolves a git ref to a commit id; throws with git's message when it names none. */
export function resolveRevision(cwd: string, ref: string): string {
  return git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim();
}

export const formFile = (formId: FormId, kind: 'schema' | 'ui' | 'example') =>
  `schemas/${formId}/${formId}.${kind}.json`;

function parse(tree: FileTree, file: string, problems: Problem[]): unknown {
  const text = tree.read(file);
  if (text === undefined) {
    problems.push({ file, pointer: '', message: 'file is missing' });
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    problems.push({ file, pointer: '', message: `not valid JSON: ${(error as Error).message}` });
    return undefined;
  }
}

/** The schema files of the schemas/common folder. */
export function commonFiles(tree: FileTree): string[] {
  return tree
    .list('schemas/common')
    .filter((name) => name.endsWith('.schema.json'))
    .map((name) => `schemas/common/${name}`);
}

/** The form ids with a folder under schemas/ (whatever it holds). */
export function formFolders(tree: FileTree): FormId[] {
  return FORM_IDS.filter((formId) => tree.list(`schemas/${formId}`).length > 0);
}

/**
 * Every form with a folder under schemas/, and the common schemas. A form with a missing or
 * malformed file is left out and its problem reported.
 */
export function readFormSources(tree: FileTree): { sources: FormSources; problems: Problem[] } {
  const problems: Problem[] = [];
  const commons: FormSources['commons'] = {};
  for (const file of commonFiles(tree)) {
    const content = parse(tree, file, problems);
    if (content !== undefined) commons[path.posix.basename(file)] = content;
  }
  const forms: FormSources['forms'] = {};
  for (const formId of formFolders(tree)) {
    const [schema, uiSchema, example] = (['schema', 'ui', 'example'] as const).map((kind) =>
      parse(tree, formFile(formId, kind), problems),
    );
    if (schema !== undefined && uiSchema !== undefined && example !== undefined) {
      forms[formId] = { schema, uiSchema, example };
    }
  }
  return { sources: { forms, commons }, problems };
}

export const FIXTURES_FOLDER = 'tests/fixtures/forms';

/** The fixtures `tests/fixtures/forms/<form-id>/*.json` of every form folder found there. */
export function readFixtures(tree: FileTree): { fixtures: Fixture[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const fixtures: Fixture[] = [];
  for (const folder of tree.list(FIXTURES_FOLDER)) {
    for (const name of tree.list(`${FIXTURES_FOLDER}/${folder}`)) {
      if (!name.endsWith('.json')) continue;
      const file = `${FIXTURES_FOLDER}/${folder}/${name}`;
      const content = parse(tree, file, problems);
      if (content !== undefined) fixtures.push({ file, content });
    }
  }
  return { fixtures, problems };
}
