/**
 * Which revision of schemas/ a stored `schema_hash` was answered under: walks the commits that
 * touched schemas/ (newest first, then the uncommitted working tree) and bundles each form as
 * the portal does, until one hashes to the value.
 */
import { execFileSync } from 'node:child_process';
import { bundleForm } from '../../shared/forms/model/bundleForm';
import {
  diskTree,
  formsDirInRepo,
  gitTree,
  readFormSources,
  repositoryTop,
  type FileTree,
} from './readFormFiles';

interface SchemaVersion {
  /** The commit id, or `undefined` for the working tree (not committed yet). */
  commit: string | undefined;
  formId: string;
  tree: FileTree;
}

function hashesOf(tree: FileTree): Map<string, string> {
  const { sources } = readFormSources(tree);
  const hashes = new Map<string, string>();
  for (const [formId, files] of Object.entries(sources.forms)) {
    try {
      hashes.set(bundleForm(files, sources.commons).hash, formId);
    } catch {
      // a revision whose files did not bundle was never served
    }
  }
  return hashes;
}

/**
 * The version whose bundled form hashes to `hash`; `undefined` when none does. `formsDir` (the
 * `FORMS_DIR` setting) is searched too: in the commits that touched it when it is inside the
 * repository, and as it is on disk.
 */
export function findSchemaVersion(
  root: string,
  hash: string,
  formsDir?: string,
): SchemaVersion | undefined {
  const wanted = hash.toLowerCase();
  const inRepo = formsDirInRepo(repositoryTop(root), root, formsDir);
  const commits = execFileSync(
    'git',
    ['log', '--format=%H', '--', 'schemas', ...(inRepo ? [inRepo] : [])],
    { cwd: root, encoding: 'utf8' },
  )
    .split('\n')
    .filter(Boolean);
  for (const commit of commits) {
    const tree = gitTree(root, commit, inRepo);
    const found = hashesOf(tree).get(wanted);
    if (found) return { commit, formId: found, tree };
  }
  const working = diskTree(root, formsDir);
  const formId = hashesOf(working).get(wanted);
  return formId ? { commit: undefined, formId, tree: working } : undefined;
}
