/**
 * `forms impact`: what a change to the schemas would do to the answers people have already given
 * (open applications, registrations awaiting review), before compliance staff publish it. Each
 * record's answers are judged as the server judges a submission (hidden answers left out, then
 * validated) under the published forms and under the changed ones; what fails only under the
 * changed ones, and what they would no longer keep, is named by form, pointer and prompt. Never
 * a value: the findings hold pointers, prompts and the schema's own messages.
 */
import type { CompiledForm } from '../model/compiledForm';
import type { Answers } from '../model/schemaTypes';
import { answerPlaces, patternOf, placeAt, questionPatterns } from '../walk/answerPlaces';
import { omitHiddenAnswers } from '../walk/answers';
import { validateAnswers } from '../validation/validateAnswers';

/** Answers someone has given and staff or the applicant still act on. */
export interface ImpactRecord {
  kind: 'registration' | 'application';
  /** The row's id (a UUID, never anything the person wrote). */
  id: string;
  formId: string;
  answers: Answers;
}

/** Where a record stands in a finding. */
export interface RecordAt {
  kind: ImpactRecord['kind'];
  id: string;
  /** The answer's own pointer (`/affiliatedPersons/1/ssn`). */
  pointer: string;
}

/** One question a change touches: by its pattern (`/affiliatedPersons/*\/ssn`) and prompt. */
export interface QuestionImpact {
  pattern: string;
  prompt: string;
  /** The changed form's message (failures only). */
  message?: string;
  records: RecordAt[];
}

export interface Reworded {
  pattern: string;
  before: string;
  after: string;
  /**
   * How many records answered the question. The console keeps showing each submitted answer under
   * the prompt its applicant answered (sent with it); an application not yet submitted is asked
   * with the new prompt.
   */
  answeredBy: number;
}

/** What a rewording means for answers already given, as `forms impact` says it. */
export const REWORDED_HEADING =
  'Reworded (the answers stand; the console shows a submitted answer under the prompt its ' +
  'applicant answered, and an application not yet submitted is asked with the new prompt):';

export interface FormImpact {
  formId: string;
  checked: { registrations: number; applications: number };
  /** The changed schemas have no such form: every record of it would be left without one. */
  formRemoved: boolean;
  newlyFailing: QuestionImpact[];
  dropped: QuestionImpact[];
  reworded: Reworded[];
}

type Catalog = ReadonlyMap<string, CompiledForm>;

const shown = (form: CompiledForm, answers: Answers) => omitHiddenAnswers(form, answers);

/** The pointers of the answers a form keeps of `answers` (what it would send and store). */
function keptPointers(form: CompiledForm, answers: Answers): Set<string> {
  return new Set(answerPlaces(form.schema, shown(form, answers)).places.map((p) => p.pointer));
}

const questions = new WeakMap<CompiledForm, ReturnType<typeof questionPatterns>>();
function questionsOf(form: CompiledForm) {
  let found = questions.get(form);
  if (!found) questions.set(form, (found = questionPatterns(form.schema)));
  return found;
}

function add(
  into: Map<string, QuestionImpact>,
  form: CompiledForm,
  pointer: string,
  record: ImpactRecord,
  message?: string,
) {
  const pattern = patternOf(form.schema, pointer);
  let question = into.get(pattern);
  if (!question) {
    // 'Affiliated person: SSN' for every person's, as the question is asked of each.
    const prompt =
      questionsOf(form).get(pattern)?.prompt ?? placeAt(form.schema, pointer)?.prompt ?? pattern;
    question = { pattern, prompt, ...(message ? { message } : {}), records: [] };
    into.set(pattern, question);
  }
  question.records.push({ kind: record.kind, id: record.id, pointer });
}

/**
 * The impact of `changed` forms on `records`, against the `published` ones (undefined when there
 * is nothing to compare with: every failure and every answer not kept is then listed).
 */
export function formsImpact(
  published: Catalog | undefined,
  changed: Catalog,
  records: readonly ImpactRecord[],
): FormImpact[] {
  const byForm = new Map<string, ImpactRecord[]>();
  for (const record of records) {
    byForm.set(record.formId, [...(byForm.get(record.formId) ?? []), record]);
  }
  const out: FormImpact[] = [];
  for (const [formId, list] of [...byForm].sort(([a], [b]) => a.localeCompare(b))) {
    const before = published?.get(formId);
    const after = changed.get(formId);
    const checked = {
      registrations: list.filter((r) => r.kind === 'registration').length,
      applications: list.filter((r) => r.kind === 'application').length,
    };
    const impact: FormImpact = {
      formId,
      checked,
      formRemoved: !after,
      newlyFailing: [],
      dropped: [],
      reworded: [],
    };
    out.push(impact);
    if (!after) continue;
    const failing = new Map<string, QuestionImpact>();
    const dropped = new Map<string, QuestionImpact>();
    const answeredPatterns = new Map<string, number>();
    for (const record of list) {
      const failedBefore = new Set(
        before
          ? validateAnswers(before, shown(before, record.answers)).errors.map((e) => e.path)
          : [],
      );
      for (const error of validateAnswers(after, shown(after, record.answers)).errors) {
        if (!failedBefore.has(error.path)) add(failing, after, error.path, record, error.message);
      }
      const keptAfter = keptPointers(after, record.answers);
      const keptBefore = before
        ? keptPointers(before, record.answers)
        : new Set(answerPlaces(after.schema, record.answers).unknown);
      for (const pointer of keptBefore) {
        if (!keptAfter.has(pointer)) add(dropped, before ?? after, pointer, record);
      }
      const patterns = new Set([...keptAfter].map((pointer) => patternOf(after.schema, pointer)));
      for (const pattern of patterns) {
        answeredPatterns.set(pattern, (answeredPatterns.get(pattern) ?? 0) + 1);
      }
    }
    impact.newlyFailing = [...failing.values()];
    impact.dropped = [...dropped.values()];
    if (before) {
      const questionsBefore = questionsOf(before);
      for (const [pattern, question] of questionsOf(after)) {
        const earlier = questionsBefore.get(pattern);
        if (earlier && earlier.prompt !== question.prompt) {
          impact.reworded.push({
            pattern,
            before: earlier.prompt,
            after: question.prompt,
            answeredBy: answeredPatterns.get(pattern) ?? 0,
          });
        }
      }
    }
  }
  return out;
}

/** Whether anything would newly fail, be dropped or lose its form. */
export const hasImpact = (impacts: readonly FormImpact[]): boolean =>
  impacts.some((i) => i.formRemoved || i.newlyFailing.length > 0 || i.dropped.length > 0);
