/** The `forms` commands; each returns the process exit code (see src/cli/forms.ts). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  bundledSchema,
  checkFixture,
  checkForms,
  type Problem,
} from '../../shared/forms/check/checkForms';
import { compileProblems } from '../../shared/forms/check/compileProblems';
import {
  checkGolden,
  goldenFormId,
  recordGolden,
  type Golden,
} from '../../shared/forms/check/goldenPayloads';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { compileForms } from '../../shared/forms/model/compileNode';
import { checkEsignConsent, ESIGN_CONSENT_FILE } from '../../shared/forms/model/esignConsent';
import { jsonSyntaxMessage, parse } from '../../shared/forms/model/formFiles';
import { checkRoot, ROOT_NOT_OBJECT } from '../../shared/forms/check/checkBuild';
import { unaskedAnswers, unaskedMessage } from '../../shared/forms/walk/answers';
import { FixtureError, fixtureAnswers } from '../../shared/forms/check/fixtures';
import { PayloadError, toPayloadJson } from '../../shared/forms/payload/payload';
import { fieldsInOrder } from '../../shared/forms/walk/schemaWalk';
import { isPlainObject, type Answers } from '../../shared/forms/model/schemaTypes';
import { validateAnswers } from '../../shared/forms/validation/validateAnswers';
import { findSchemaVersion } from './findSchemaVersion';
import {
  commonFiles,
  diskTree,
  formsDirInRepo,
  gitTree,
  readFixtures,
  readFormSources,
  readGoldens,
  repositoryTop,
  resolveRevision,
  type FileTree,
} from './readFormFiles';
import { fromCwd, placeProblems, problemLines } from './problemPlaces';
import { changesTable, diffWording, readWording, wordingTable } from './wording';

/** Input the command cannot work with (exit code 2); the message says what to fix. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const out = (text: string) => console.log(text);

/** Problems grouped by file, each at its place, and how many. */
function printProblems(problems: Problem[]) {
  for (const line of problemLines(problems)) out(line);
  const files = new Set(problems.map((problem) => problem.file)).size;
  const s = (n: number) => (n === 1 ? '' : 's');
  out(`\n${problems.length} problem${s(problems.length)} in ${files} file${s(files)}`);
}

export function runCheck(root: string): number {
  if (!fs.existsSync(path.join(root, 'schemas'))) {
    throw new UsageError(`no schemas/ folder in ${root}`);
  }
  const tree = diskTree(root, process.env.FORMS_DIR);
  const read = readFormSources(tree);
  const { fixtures, problems: fixtureProblems } = readFixtures(tree);
  const { goldens, problems: goldenProblems } = readGoldens(tree);
  const pdfs = path.join(root, 'assets', 'pdfs');
  const assetFiles = fs.existsSync(pdfs)
    ? fs.readdirSync(pdfs).map((name) => `/assets/pdfs/${name}`)
    : undefined;
  const unreadForms = read.problems.map((problem) => problem.file.split('/')[1] ?? '');
  const { problems: checked, forms: compiled } = checkForms(read.sources, fixtures, {
    unreadForms,
    ...(assetFiles ? { assetFiles } : {}),
  });
  // The e-sign consent shown before the first signature (ESIGN 7001(c)): every part present.
  const consentProblems: Problem[] = [];
  const consent = parse(tree, ESIGN_CONSENT_FILE, consentProblems);
  if (consent !== undefined) consentProblems.push(...checkEsignConsent(consent, assetFiles));
  const problems = placeProblems(
    [
      ...read.problems,
      ...fixtureProblems,
      ...goldenProblems,
      ...checked,
      ...goldens.flatMap((golden) => goldenProblemsOf(compiled, golden)),
      ...consentProblems,
    ],
    tree,
    root,
    read.sources,
  );
  if (problems.length > 0) {
    printProblems(problems);
    return 1;
  }
  const forms = [...compiled.keys()];
  out(
    `OK: ${forms.length} form${forms.length === 1 ? '' : 's'} (${forms.join(', ')}) compile, ` +
      `have their prompts, messages, uiSchema and example right; the e-sign consent is complete; ` +
      `${fixtures.length} fixtures give exactly their expected messages; ` +
      `${goldens.length} golden payload${goldens.length === 1 ? ' is' : 's are'} sent as recorded.`,
  );
  return 0;
}

/** A golden payload's problems: its form's, or the differences from what is sent now. */
function goldenProblemsOf(forms: Map<string, CompiledForm>, golden: Golden): Problem[] {
  const formId = goldenFormId(golden);
  const form = forms.get(formId);
  if (!form) {
    return [
      {
        file: golden.file,
        pointer: '',
        message: `no form ${formId} loads (a golden payload's file name starts with its form's id)`,
      },
    ];
  }
  try {
    return checkGolden(form, golden);
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    return [{ file: golden.file, pointer: error.pointer, message: error.message }];
  }
}

/**
 * `forms golden`: each golden payload recorded again from what its answers send now, after an
 * intended change; a value that changed in place is rewritten on its line and nothing else moves.
 */
export async function runGolden(root: string): Promise<number> {
  const tree = diskTree(root, process.env.FORMS_DIR);
  const { sources } = readFormSources(tree);
  const { goldens, problems } = readGoldens(tree);
  const forms = compileForms(sources).forms;
  let recorded = 0;
  for (const golden of goldens) {
    const form = forms.get(goldenFormId(golden));
    const full = tree.where?.(golden.file) ?? path.join(root, golden.file);
    const text = fs.readFileSync(full, 'utf8');
    let next: ReturnType<typeof recordGolden>;
    try {
      next = form ? recordGolden(form, text) : undefined;
    } catch (error) {
      if (!(error instanceof FixtureError)) throw error;
      problems.push({ file: golden.file, pointer: error.pointer, message: error.message });
      continue;
    }
    if (!form) problems.push(...goldenProblemsOf(forms, golden));
    if (next === undefined) continue;
    // Values rewritten in place keep the file's layout; a payload written whole gets Prettier's.
    const written = next.whole ? await formatted(next.text, full) : next.text;
    fs.writeFileSync(full, written);
    const lines = changedLines(text, written);
    out(`${fromCwd(full)}: recorded again (${lines} line${lines === 1 ? '' : 's'} changed)`);
    recorded++;
  }
  if (problems.length > 0) {
    printProblems(placeProblems(problems, tree, root, sources));
    return 1;
  }
  out(`${recorded} of ${goldens.length} golden payloads recorded again; review the diff.`);
  return 0;
}

/** The lines of `after` that `before` does not have at the same place. */
function changedLines(before: string, after: string): number {
  const old = before.split('\n');
  const lines = after.split('\n');
  return lines.length === old.length
    ? lines.filter((line, i) => line !== old[i]).length
    : Math.abs(lines.length - old.length) + 1;
}

/** A file rewritten whole formatted as the project formats JSON (Prettier), when it is at hand. */
async function formatted(text: string, file: string): Promise<string> {
  try {
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(file)) ?? {};
    return await prettier.format(text, { ...options, filepath: file });
  } catch {
    return text;
  }
}

/**
 * Reads the schema files from disk and compiles the one form (and those it draws); exit 2 when
 * unusable, its problems said as `forms check` says them, at their places.
 */
function prepareForm(root: string, formId: string): CompiledForm {
  const tree = diskTree(root, process.env.FORMS_DIR);
  const { sources, problems } = readFormSources(tree);
  const unusable = (own: Problem[]) =>
    new UsageError(
      `the ${formId} form's schema files do not load (\`npm run forms -- check\` checks them all):\n` +
        problemLines(placeProblems(own, tree, root, sources)).join('\n'),
    );
  const available = Object.keys(sources.forms).sort();
  if (!sources.forms[formId]) {
    const own = problems.filter((p) => p.file.startsWith(`schemas/${formId}/`));
    if (own.length > 0) throw unusable(own);
    throw new UsageError(
      `unknown form "${formId}" (no folder schemas/${formId}/ with ${formId}.schema.json` +
        `${process.env.FORMS_DIR ? ', nor in FORMS_DIR' : ''}); ` +
        `available forms: ${available.join(', ') || 'none'}`,
    );
  }
  const compiled = compileForms(sources, [formId]);
  const form = compiled.forms.get(formId);
  const own = [
    ...problems.filter((p) => p.file.startsWith('schemas/common/')),
    ...[...compiled.errors].flatMap(([id, error]) =>
      compileProblems(id, bundledSchema(sources, id), error),
    ),
  ];
  if (form && checkRoot(formId, form.schema).length > 0) {
    throw new UsageError(`the ${formId} form cannot be used: ${ROOT_NOT_OBJECT}`);
  }
  if (!form || own.length > 0) throw unusable(own);
  return form;
}

interface AnswersFile {
  answers: Answers;
  /** Set when the file is a fixture: its expected messages. */
  fixture?: { content: unknown };
}

function readAnswers(file: string, form: CompiledForm): AnswersFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is ${jsonSyntaxMessage(text, error)}`);
  }
  if (!isPlainObject(content)) {
    throw new UsageError(`${file} must hold a JSON object of answers ({"firstName": "Jane", …})`);
  }
  if (Array.isArray(content.expectedErrors)) {
    try {
      return {
        answers: fixtureAnswers(form.id, form.example, content),
        fixture: { content },
      };
    } catch (error) {
      if (error instanceof FixtureError) throw new UsageError(`${file}: ${error.message}`);
      throw error;
    }
  }
  return { answers: content };
}

export function runValidate(root: string, formId: string, file: string, json: boolean): number {
  const form = prepareForm(root, formId);
  const { answers, fixture } = readAnswers(file, form);
  const result = validateAnswers(form, answers);
  // A key no question asks (a typo) would pass unseen: the form drops it before sending.
  const unasked = unaskedAnswers(form, answers);
  const valid = result.valid && unasked.length === 0;
  if (json) {
    out(JSON.stringify({ valid, errors: result.errors, unasked }, null, 2));
    return valid ? 0 : 1;
  }
  const prompts = new Map(
    fieldsInOrder(form.schema, form.uiSchema).map((f) => [f.pointer, f.schema.title]),
  );
  if (fixture) out(`${file} is a fixture: validating the answers it stands for.`);
  if (result.valid && unasked.length > 0) {
    out(`${file}: the answers this ${form.id} form asks are valid.`);
  } else if (result.valid) out(`${file}: valid ${form.id} answers.`);
  else {
    const n = result.errors.length;
    out(`${file}: ${n} problem${n === 1 ? '' : 's'} with these ${form.id} answers`);
    // An answer with several messages (a list's own and a rule's) is named once above them.
    let previous: string | undefined;
    for (const { path: pointer, message } of result.errors) {
      const prompt = prompts.get(pointer);
      if (pointer !== previous) out(`  ${pointer || '(form)'}${prompt ? ` (${prompt})` : ''}`);
      out(`    ${message}`);
      previous = pointer;
    }
  }
  if (!fixture) {
    if (unasked.length > 0) out(`${file}: ${unaskedMessage(unasked)}`);
    return valid ? 0 : 1;
  }
  const mismatch = checkFixture(form, { file, content: fixture.content }).filter(
    (problem) => problem.pointer === '/expectedErrors',
  );
  // Stray answers make the fixture wrong whatever its messages: said once, as what to fix.
  if (unasked.length > 0) {
    out(
      `The fixture is not right: it gives answers this form does not ask (${unasked.join(', ')}); ` +
        'remove them or correct their paths' +
        (mismatch.length === 0 ? ' (its messages are otherwise its "expectedErrors").' : '.'),
    );
  } else if (mismatch.length === 0) out('These are exactly the fixture\'s "expectedErrors".');
  if (mismatch.length > 0) {
    out(`These differ from the fixture's "expectedErrors": ${mismatch[0]!.message}`);
  }
  return valid ? 0 : 1;
}

export function runPayload(root: string, formId: string, file: string): number {
  const form = prepareForm(root, formId);
  const { answers } = readAnswers(file, form);
  const { valid, errors } = validateAnswers(form, answers);
  try {
    out(JSON.stringify(toPayloadJson(form, answers), null, 2));
  } catch (error) {
    if (!(error instanceof PayloadError)) throw error;
    console.error(`No payload: ${error.pointer}: ${error.message}`);
    return 1;
  }
  const unasked = unaskedAnswers(form, answers);
  if (unasked.length > 0) console.error(`Note: ${unaskedMessage(unasked)}; they are not sent.`);
  if (!valid) {
    console.error(
      `Note: these answers are not valid (${errors.length} problems; ` +
        `see \`npm run forms -- validate ${form.id} ${file}\`); the portal would not send them.`,
    );
  }
  return 0;
}

function revision(root: string, ref: string): string {
  try {
    return resolveRevision(root, ref);
  } catch {
    throw new UsageError(`"${ref}" names no git revision of ${root}`);
  }
}

function describeCommit(root: string, commit: string): string {
  return execFileSync('git', ['log', '-1', '--format=%h %ad %s', '--date=short', commit], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
}

/**
 * The wording of a tree, limited to `formId`'s files (and the common ones) when given, each file
 * named where it is (a `FORMS_DIR` form by its own folder).
 */
function wordingAt(root: string, tree: FileTree, formId?: string) {
  const common = new Set(commonFiles(tree));
  return readWording(tree)
    .filter((e) => !formId || e.file.startsWith(`schemas/${formId}/`) || common.has(e.file))
    .map((e) => ({ ...e, file: fromRoot(root, tree.where?.(e.file) ?? path.join(root, e.file)) }));
}

/** A file as the project names it: from its root (`schemas/…`), or in full when outside it. */
function fromRoot(root: string, full: string): string {
  const relative = path.relative(root, full);
  return relative.startsWith('..') || path.isAbsolute(relative) ? full : relative;
}

export function runWording(root: string, options: { since?: string; at?: string }): number {
  const { since, at } = options;
  if (since !== undefined && at !== undefined) {
    throw new UsageError('give --since or --at, not both');
  }
  // A FORMS_DIR form's wording: on disk, and in git when the folder is in the repository.
  const formsDir = process.env.FORMS_DIR;
  const atRevision = (commit: string) =>
    gitTree(root, commit, formsDirInRepo(repositoryTop(root), root, formsDir));
  const now = diskTree(root, formsDir);
  if (since !== undefined) {
    const before = wordingAt(root, atRevision(revision(root, since)));
    const changes = diffWording(before, wordingAt(root, now));
    if (changes.length === 0) out(`No wording added, changed or removed since ${since}.`);
    else {
      out(`Wording added, changed or removed since ${since} (${changes.length}):\n`);
      out(changesTable(changes));
    }
    return 0;
  }
  if (at !== undefined) {
    if (/^[0-9a-f]{64}$/i.test(at)) {
      const version = findSchemaVersion(root, at, formsDir);
      if (!version) {
        throw new UsageError(
          `no version of schemas/${formsDir ? ' or FORMS_DIR' : ''} (working tree or commit) hashes to ${at}; ` +
            'the firm name or the bundling may have changed since' +
            (formsDir ? '' : ' (a FORMS_DIR form is found with FORMS_DIR set)'),
        );
      }
      const where = version.commit
        ? `commit ${describeCommit(root, version.commit)}`
        : 'the working tree (not committed yet)';
      out(`Schema hash ${at}: the ${version.formId} form at ${where}.\n`);
      out(wordingTable(wordingAt(root, version.tree, version.formId)));
      return 0;
    }
    const commit = revision(root, at);
    out(`Wording at ${describeCommit(root, commit)}:\n`);
    out(wordingTable(wordingAt(root, atRevision(commit))));
    return 0;
  }
  const entries = wordingAt(root, now);
  out(wordingTable(entries));
  out(`\n${entries.length} entries`);
  return 0;
}
