/**
 * `npm run forms -- impact`: the working tree's schemas run against every open application and
 * every registration awaiting review in the portal's database (DATABASE_URL, or the embedded one
 * in DATA_DIR), their sensitive answers opened with the key ring, compared with the schemas at a
 * git revision (HEAD: what is published). A `FORMS_DIR` folder's forms are read too (at the
 * revision as well, when the folder is in the repository). Prints pointers, prompts and
 * messages, never a value.
 */
import type pg from 'pg';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { compileForms } from '../../shared/forms/model/compileNode';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import {
  formsImpact,
  hasImpact,
  type FormImpact,
  type ImpactRecord,
  type QuestionImpact,
  REWORDED_HEADING,
} from '../../shared/forms/check/impact';
import { listOpenApplicationAnswers } from '../../server/db/applications';
import { listPendingRegistrationAnswers, type StoredAnswers } from '../../server/db/registrations';
import { readConfig } from '../../server/config';
import {
  FieldKeyError,
  loadFieldKeys,
  type FieldKeyRing,
} from '../../server/fieldEncryption/keyRing';
import { openRegistrationAnswers } from '../../server/fieldEncryption/registrationSealing';
import { openApplicationAnswers } from '../../server/fieldEncryption/applicationSealing';
import { UnreadableFieldError } from '../../server/fieldEncryption/sealedJson';
import { openPortalDatabase } from '../admin/openPortalDatabase';
import {
  diskTree,
  formsDirInRepo,
  gitTree,
  readFormSources,
  repositoryTop,
  resolveRevision,
  type FileTree,
} from './readFormFiles';
import { UsageError } from './commands';

const out = (text: string) => console.log(text);

/** Every form of a file tree compiled; a form that does not load makes the comparison useless. */
function catalog(tree: FileTree, where: string): Map<string, CompiledForm> {
  const { sources, problems: read } = readFormSources(tree);
  const { forms, problems } = compileForms(sources);
  const all = [...read, ...problems];
  if (all.length > 0) {
    throw new UsageError(
      `the schemas ${where} do not load (run \`npm run forms -- check\`):\n` +
        all.map((p) => `${p.file}${p.pointer ? ` ${p.pointer}` : ''}: ${p.message}`).join('\n'),
    );
  }
  return forms;
}

/** The published forms: the schemas at `since` (default HEAD), or none outside a git checkout. */
function publishedForms(
  root: string,
  since: string | undefined,
  formsDir: string | undefined,
): { forms: Map<string, CompiledForm> | undefined; label: string } {
  let commit: string;
  try {
    commit = resolveRevision(root, since ?? 'HEAD');
  } catch {
    if (since) throw new UsageError(`unknown git revision "${since}"`);
    return { forms: undefined, label: '' };
  }
  const label = `${since ?? 'HEAD'} (${commit.slice(0, 7)})`;
  // A FORMS_DIR folder inside the repository is published with it; one outside has no history.
  const tree = gitTree(root, commit, formsDirInRepo(repositoryTop(root), root, formsDir));
  return { forms: catalog(tree, `at ${label}`), label };
}

/** The answers still acted on, opened; those a key is missing for are named instead. */
async function readRecords(
  pool: pg.Pool,
  ring: FieldKeyRing,
): Promise<{ records: ImpactRecord[]; unreadable: string[] }> {
  const records: ImpactRecord[] = [];
  const unreadable: string[] = [];
  const read = (kind: ImpactRecord['kind'], row: StoredAnswers, open: () => Answers) => {
    try {
      records.push({ kind, id: row.id, formId: row.form_id, answers: open() });
    } catch (error) {
      if (!(error instanceof UnreadableFieldError)) throw error;
      unreadable.push(`${kind} ${row.id}: ${error.message}`);
    }
  };
  for (const row of await listPendingRegistrationAnswers(pool)) {
    read('registration', row, () => openRegistrationAnswers(ring, row.id, row.answers));
  }
  // Open: still being filled in, or reopened for the changes staff asked for.
  for (const row of await listOpenApplicationAnswers(pool)) {
    read('application', row, () => openApplicationAnswers(ring, row.id, row.answers));
  }
  return { records, unreadable };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function counted({ registrations, applications }: FormImpact['checked']): string {
  return [
    plural(registrations, 'registration awaiting review', 'registrations awaiting review'),
    plural(applications, 'open application'),
  ].join(', ');
}

function printQuestions(title: string, questions: QuestionImpact[]) {
  if (questions.length === 0) return;
  out(`  ${title}`);
  for (const question of questions) {
    out(
      `    ${question.pattern} (${question.prompt})${question.message ? `: ${question.message}` : ''}`,
    );
    for (const record of question.records) {
      const at = record.pointer === question.pattern ? '' : `  at ${record.pointer}`;
      out(`      ${record.kind} ${record.id}${at}`);
    }
  }
}

function printImpacts(
  impacts: FormImpact[],
  label: string,
  unreadable: string[],
  unpublished: ReadonlySet<string>,
) {
  const total = impacts.reduce(
    (sum, i) => ({
      registrations: sum.registrations + i.checked.registrations,
      applications: sum.applications + i.checked.applications,
    }),
    { registrations: 0, applications: 0 },
  );
  out(
    label
      ? `The working tree's schemas compared with ${label}, on ${counted(total)}.`
      : `No git revision to compare with: every answer the working tree's schemas refuse or drop is listed (${counted(total)}).`,
  );
  for (const impact of impacts) {
    out(`\n${impact.formId} (${counted(impact.checked)})`);
    if (impact.formRemoved) {
      out(
        `  The working tree has no form ${impact.formId}: these would be left without their form.`,
      );
      continue;
    }
    if (unpublished.has(impact.formId)) {
      out(
        `  ${label} has no form ${impact.formId} (a FORMS_DIR folder outside the repository has no history): every answer it refuses or drops is listed.`,
      );
    }
    printQuestions('Would newly fail:', impact.newlyFailing);
    printQuestions('Would be dropped (no longer kept, sent or stored):', impact.dropped);
    if (impact.reworded.length > 0) {
      out(`  ${REWORDED_HEADING}`);
      for (const change of impact.reworded) {
        out(
          `    ${change.pattern}: "${change.before}" → "${change.after}" (answered in ${plural(change.answeredBy, 'record')})`,
        );
      }
    }
    const none = impact.newlyFailing.length + impact.dropped.length + impact.reworded.length === 0;
    if (none) out('  No answer would fail or be dropped.');
  }
  for (const line of unreadable) out(`\nNot checked: ${line}`);
  const failing = impacts.reduce(
    (n, i) => n + i.newlyFailing.reduce((m, q) => m + q.records.length, 0),
    0,
  );
  const dropped = impacts.reduce(
    (n, i) => n + i.dropped.reduce((m, q) => m + q.records.length, 0),
    0,
  );
  out(
    `\n${plural(failing, 'answer')} would newly fail and ${plural(dropped, 'answer')} would be dropped.`,
  );
}

export async function runImpact(
  root: string,
  options: { since?: string; json?: boolean },
): Promise<number> {
  const formsDir = process.env.FORMS_DIR;
  const changed = catalog(diskTree(root, formsDir), 'in the working tree');
  const published = publishedForms(root, options.since, formsDir);
  const config = readConfig(process.env);
  let ring;
  try {
    ring = loadFieldKeys(config);
  } catch (error) {
    if (error instanceof FieldKeyError) throw new UsageError(error.message);
    throw error;
  }
  let database;
  try {
    database = await openPortalDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      log: (line) => console.error(line),
    });
  } catch (error) {
    throw new UsageError(`cannot open the portal's database: ${(error as Error).message}`);
  }
  let read;
  try {
    read = await readRecords(database.pool, ring);
  } finally {
    await database.close();
  }
  const impacts = formsImpact(published.forms, changed, read.records);
  // Forms of the working tree the revision does not have: compared with nothing.
  const unpublished = new Set(
    published.forms
      ? impacts
          .map((impact) => impact.formId)
          .filter((id) => changed.has(id) && !published.forms!.has(id))
      : [],
  );
  if (options.json) {
    out(
      JSON.stringify(
        {
          comparedWith: published.label || null,
          forms: impacts,
          unpublished: [...unpublished],
          unreadable: read.unreadable,
        },
        null,
        2,
      ),
    );
  } else {
    printImpacts(impacts, published.label, read.unreadable, unpublished);
  }
  return hasImpact(impacts) || read.unreadable.length > 0 ? 1 : 0;
}
