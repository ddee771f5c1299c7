import {
  type Registry,
  createSchemaUtils,
  type ErrorSchema,
  type RJSFSchema,
  type SchemaUtilsType,
  type UiSchema,
} from '@rjsf/utils';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import type { FormValidator } from '../../shared/forms/model/schemaTypes';
import { createRjsfValidator } from '../../shared/forms/validation/rjsfErrors';
import { omitHiddenAnswers } from '../../shared/forms/walk/answers';
import { questionAt } from '../../shared/forms/walk/changeScope';
import { canonicalJson } from '../../shared/forms/model/bundleForm';
import { stepFields, type FormStep } from '../../shared/forms/model/steps';
import { clearDraft, createDraftSaver, loadDraft } from './drafts';
import { createFormEngine, getByPointer, ValueStore, type FormEngine } from './engine';
import { droppedPointers } from './droppedPointers';
import { collapseWidgetErrors, filterErrorSchema } from './errors';
import { FormStatusStore } from './formStatus';
import type { ChangeMode } from './changeModeModel';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import { fromPointer, toPointer } from '../../shared/forms/model/pointer';

export type { Answers };

/** Where the user is when answers are kept (the step reopens there). */
export interface SaveContext {
  step?: number;
}

/**
 * Where a session keeps its answers between visits: browser drafts (`browserDrafts`, without
 * sensitive answers) or the applicant's application on the server (`ServerApplication`).
 */
export interface SessionPersistence {
  /** Where kept answers come from: this device's draft, or the server's application. */
  readonly restoredFrom?: 'device' | 'server';
  /** Answers kept earlier, laid over the form's initial answers when the session opens. */
  load(): Answers | undefined;
  /** The step the kept answers were left at. */
  loadStep?(): number | undefined;
  /** Pointers of file answers whose bytes the store already holds (they open as chosen). */
  heldFiles?(): string[];
  /** Keeps the answers (the store decides what of them, and when). */
  save(answers: Answers, context?: SaveContext): void;
  /** Writes a pending save now (leaving a step, the page closing). */
  flush(): void;
  /** Forgets the kept answers and any pending save (Reset Form; a submit without `submitted`). */
  clear(): void;
  /** The answers were submitted: nothing more is kept from this page. */
  submitted?(): void;
}

/** Drafts in localStorage under 'clearing.draft.<formId>', 300 ms after a change, filtered. */
export function browserDrafts(
  formId: string,
  filter: (answers: Answers) => Answers,
): SessionPersistence {
  const saver = createDraftSaver(formId, filter);
  return {
    restoredFrom: 'device',
    load: () => loadDraft(formId),
    save: (answers) => saver.save(answers),
    flush: () => saver.flush(),
    clear: () => {
      saver.cancel();
      clearDraft(formId);
    },
  };
}

/** The session of the form a widget belongs to (SchemaForm passes it in `formContext`). */
export function sessionOf(registry: Registry): FormSession | undefined {
  const context: unknown = registry.formContext;
  if (context && typeof context === 'object' && 'session' in context) {
    const { session } = context as { session: unknown };
    return session instanceof FormSession ? session : undefined;
  }
  return undefined;
}

/** Rjsf's ids: 'root_affiliatedPersons_0_ssn' for '/affiliatedPersons/0/ssn'. */
export function idOfPointer(pointer: string): string {
  return ['root', ...fromPointer(pointer)].join('_');
}

/**
 * Defaults are the schema's `default`s only: a `const: true` agreement starts unsigned (rjsf
 * would pre-fill consts) and an unanswered file is absent, not `{}` (so "required" fires).
 */
export const DEFAULTS_BEHAVIOUR = {
  constAsDefaults: 'never',
  // A yes/no question starts unanswered: rjsf would pre-answer every required boolean "No".
  requiredBooleanDefault: 'skip',
  emptyObjectFields: 'skipEmptyDefaults',
  // A list starts empty: 'at least one person' is a rule to meet, not a blank row to fill.
  arrayMinItems: { populate: 'never' },
} as const;

/** One message of the current errors, with the field it belongs to. */
export interface ErrorEntry {
  /** The field's element id ('root_bizName'). */
  id: string;
  /** The answer's JSON pointer ('/bizName'). */
  pointer: string;
  message: string;
  /** The answer was given and is refused (an answer to fix), not still needed. */
  given?: boolean;
}

interface FormSessionOptions {
  /** The compiled form the session answers: what it asks, how, its rules and its nested forms. */
  form: CompiledForm;
  /** The page shows the form's title as its own heading: the form does not draw it again. */
  ownHeading?: boolean;
  /** Answers the form opens with (prefilled ones); kept answers are laid over them. */
  initial?: Answers;
  /**
   * Answers taken as the person's own work (the preview's example): opened with like kept
   * answers, so Next and Submit are live at once, but never said to be restored.
   */
  given?: Answers;
  persistence?: SessionPersistence;
  /** Wait this long after the last change before validating again (spec §4: 400 ms). */
  validationDelayMs?: number;
  /**
   * The step to open at when the page decides it (change mode: the first requested change's)
   * rather than where the answers were left. Opening is not a move: nothing is saved for it (a
   * 50-person application was sent back whole on every visit to the changes page).
   */
  openAt?: number;
  /** The prefix of the fields' ids ('root'); a form drawn inside another (a dialog) has its own. */
  idPrefix?: string;
  /** Draw the form as one page even if its uiSchema names steps (a form on its own, in a test). */
  onePage?: boolean;
  /** Changes requested: which answers may change (see changeModeModel.ts); absent otherwise. */
  changeMode?: ChangeMode;
}

/**
 * One form's state outside React: answers, chosen files, touched fields, the current step and
 * the errors, with the operations a page drives (`next`, `back`, `reset`, `submit`) and stores
 * that views subscribe to. A wizard's steps, its review and a one-page form are views of a
 * session; widgets reach it through `engine` (rjsf's `registry.formContext.engine`).
 */
export class FormSession {
  readonly formId: string;
  readonly form: CompiledForm;
  /** The form's schema, uiSchema and validator as rjsf takes them (made of `form`). */
  readonly schema: RJSFSchema;
  readonly uiSchema: UiSchema;
  readonly validator: FormValidator;
  readonly engine: FormEngine = createFormEngine();
  readonly status = new FormStatusStore();
  /** The errors fields show: touched fields of the current step, all of it after a Next or submit attempt. */
  readonly shownErrors = new ValueStore<ErrorSchema<Answers> | undefined>(undefined);
  /** Every error of the current step (of the whole form on a review step), touched or not. */
  readonly stepErrors = new ValueStore<ErrorEntry[]>([]);
  readonly stepIndex = new ValueStore(0);
  /** Bumped when a view must move focus to the first shown error. */
  readonly focusRequests = new ValueStore(0);
  /** Bumped by reset(): views remount with the fresh answers. */
  readonly generation = new ValueStore(0);
  /** The steps of a wizard (undefined for a one-page form). */
  readonly steps: FormStep[] | undefined;
  /** True when kept answers (a draft) were restored when the session opened. */
  readonly restored: boolean;
  /** Where restored answers came from: this device's draft or the server's application. */
  readonly restoredFrom: 'device' | 'server';
  readonly schemaUtils: SchemaUtilsType<Answers>;
  readonly idPrefix: string;
  /** Set when the form reopened for the changes staff asked for. */
  readonly changeMode: ChangeMode | undefined;

  private readonly persistence: SessionPersistence | undefined;
  private readonly prefilled: Answers;
  private readonly validationDelayMs: number;
  private current: Answers;
  private readonly touched = new Set<string>();
  private attempted = false;
  private interacted = false;
  private resumed = false;
  private baseline: string;
  private scheduled = false;
  private validationTimer: ReturnType<typeof setTimeout> | undefined;
  /** Files the server refused, by pointer: the refused answer and the server's reason. */
  private readonly refusedFiles = new Map<string, { answer: string; message: string }>();
  /** Answers a submission was refused for (a 422), by pointer: the answer then, the messages. */
  private readonly refusedAnswers = new Map<string, { answer: string; messages: string[] }>();
  private lastVerdict:
    { data: Answers; collapse: boolean; valid: boolean; shaped: ErrorSchema<Answers> } | undefined;

  constructor(options: FormSessionOptions) {
    const { form } = options;
    this.formId = form.id;
    this.form = form;
    this.schema = form.schema as RJSFSchema;
    this.uiSchema = options.ownHeading ? withoutTitle(form.uiSchema) : (form.uiSchema as UiSchema);
    this.validator = createRjsfValidator(form);
    this.persistence = options.persistence;
    this.validationDelayMs = options.validationDelayMs ?? 0;
    this.idPrefix = options.idPrefix ?? 'root';
    this.changeMode = options.changeMode;
    this.steps = options.onePage ? undefined : form.steps;
    this.schemaUtils = createSchemaUtils(this.validator, this.schema, DEFAULTS_BEHAVIOUR);
    this.prefilled = { ...options.initial };
    const loaded = this.persistence?.load();
    this.restored = !!loaded && Object.keys(loaded).length > 0;
    const kept = options.given ?? loaded;
    this.restoredFrom = this.persistence?.restoredFrom ?? 'device';
    // Prefilled answers (the signed-in email) win over a draft's.
    this.current = { ...kept, ...this.prefilled };
    // Kept answers (the application on the server, this device's draft) are the applicant's own
    // work: "unchanged" (which keeps Submit disabled) means unchanged from the blank form a
    // person starts with, not from where it was left (issue 26 §1).
    this.resumed = this.restored || (!!options.given && Object.keys(options.given).length > 0);
    this.baseline = canonicalJson(this.resumed ? this.prefilled : this.current);
    this.engine.answers.set(this.current);
    // Change mode resubmits the answers as they stand: nothing has to differ first.
    this.status.set({ dirty: !!this.changeMode || canonicalJson(this.current) !== this.baseline });
    for (const pointer of this.persistence?.heldFiles?.() ?? []) this.engine.files.hold(pointer);
    // Where it was left (the wizard still shows no step whose earlier steps do not pass).
    const step = options.openAt ?? (this.restored ? this.persistence?.loadStep?.() : undefined);
    if (this.steps && step !== undefined && step > 0 && step < this.steps.length) {
      this.stepIndex.set(step);
    }
    // The status now, not at rjsf's first change: a step drawn without a form (the review an
    // application reopens on) has no such change, and its Submit would stay grey.
    this.refresh();
  }

  /**
   * Answers that changed elsewhere (another window's, merged by the persistence): each changed
   * question is written as an ordinary change where a form is drawn, or taken as they are.
   */
  applyExternal(answers: Answers): void {
    const changed = [...new Set([...Object.keys(answers), ...Object.keys(this.current)])].filter(
      (key) => canonicalJson(answers[key] ?? null) !== canonicalJson(this.current[key] ?? null),
    );
    if (changed.length === 0) return;
    if (this.engine.writer.connected) {
      this.engine.writer.write(
        Object.fromEntries(changed.map((key) => [toPointer([key]), answers[key]])),
      );
    } else {
      this.current = answers;
      this.engine.answers.set(answers);
      this.refresh();
    }
  }

  /** Keeps the answers and the step now (Save and finish later; the persistence says how it went). */
  keepNow(): void {
    this.persistence?.save(this.current, { step: this.stepIndex.get() });
    this.persistence?.flush();
  }

  /** The answers the form opened with from outside (the signed-in email), by name. */
  prefilledAnswers(): Readonly<Answers> {
    return this.prefilled;
  }

  /** The committed answers. */
  answers(): Answers {
    return this.current;
  }

  /** The step shown, or undefined for a one-page form. */
  currentStep(): FormStep | undefined {
    return this.steps?.[this.stepIndex.get()];
  }

  isLastStep(): boolean {
    return !this.steps || this.stepIndex.get() === this.steps.length - 1;
  }

  /** All answers validated (those a condition hides left out), errors in rjsf's shape. */
  validate(
    data: Answers = this.current,
    /** Errors inside a field drawn as one widget (a dialog's list) stay on their own fields. */
    options: { collapse?: boolean } = {},
  ): { valid: boolean; errorSchema: ErrorSchema<Answers> } {
    const collapse = options.collapse !== false;
    const { valid, shaped } = this.validated(data, collapse);
    const refused = this.refusalsIn(data);
    const answers = this.answerRefusalsIn(data);
    if (refused.size === 0 && answers.size === 0) return { valid, errorSchema: shaped };
    // A refused file's reason stands in place of the form's own messages on it.
    let withRefusals: unknown = shaped;
    for (const [pointer, message] of refused) {
      withRefusals = setIn(withRefusals, fromPointer(pointer), { __errors: [message] });
    }
    // The server's messages for an answer it refused join the form's own there, each once.
    for (const [pointer, messages] of answers) {
      const node = getByPointer(withRefusals, pointer) as { __errors?: string[] } | undefined;
      const own = node?.__errors ?? [];
      const merged = [...own, ...messages.filter((message) => !own.includes(message))];
      withRefusals = setIn(withRefusals, [...fromPointer(pointer), '__errors'], merged);
    }
    return { valid: false, errorSchema: withRefusals as ErrorSchema<Answers> };
  }

  /**
   * The form's own verdict on `data`, kept for the last answers asked: answers are never changed
   * in place (each change is a new object), so the same object has the same verdict. Opening a
   * 50-person application asked it three times for the same answers (the status, the step the
   * wizard may show, rjsf's first change), each a walk of every person.
   */
  private validated(
    data: Answers,
    collapse: boolean,
  ): { valid: boolean; shaped: ErrorSchema<Answers> } {
    const last = this.lastVerdict;
    if (last && last.data === data && last.collapse === collapse) return last;
    const visible = omitHiddenAnswers(this.form, data);
    const { errors, errorSchema } = this.validator.validateFormData(
      visible,
      this.schema,
      undefined,
      undefined,
      this.uiSchema,
    );
    const shaped = (
      collapse ? collapseWidgetErrors(errorSchema, this.uiSchema) : errorSchema
    ) as ErrorSchema<Answers>;
    this.lastVerdict = { data, collapse, valid: errors.length === 0, shaped };
    return this.lastVerdict;
  }

  /**
   * The messages the form's rules give `value` as the answer at `pointer` (a chosen file's type
   * or size), with the other answers as they are: what the form already refuses is never sent.
   */
  errorsAt(pointer: string, value: unknown): string[] {
    const data = setIn(this.current, fromPointer(pointer), value) as Answers;
    let node: unknown = this.validate(data).errorSchema;
    for (const part of fromPointer(pointer)) {
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    }
    return node && typeof node === 'object'
      ? errorEntries(node as ErrorSchema).map((entry) => entry.message)
      : [];
  }

  /**
   * The server refused the file `answer` at `pointer`: its reason shows beside the field (in
   * place of the field's other messages) and holds the form back while that file is the answer;
   * removing or replacing it ends the refusal.
   */
  refuseFile(pointer: string, answer: unknown, message: string): void {
    this.refusedFiles.set(pointer, { answer: canonicalJson(answer ?? null), message });
    this.touched.add(idOfPointer(pointer).replace(/^root/, this.idPrefix));
    this.refresh();
  }

  /**
   * The server refused the submission for these answers (a 422's messages by pointer): each is
   * shown at its question as the form's own check would show it, counted as an answer to fix,
   * until that answer changes.
   */
  refuseAnswers(errors: readonly { path: string; message: string }[]): void {
    this.refusedAnswers.clear();
    for (const { path, message } of errors) {
      const refusal = this.refusedAnswers.get(path) ?? {
        answer: canonicalJson(getByPointer(this.current, path) ?? null),
        messages: [],
      };
      refusal.messages.push(message);
      this.refusedAnswers.set(path, refusal);
      // Shown at once, as a refused file's reason is.
      this.touched.add(idOfPointer(path).replace(/^root/, this.idPrefix));
    }
    this.refresh();
  }

  /** Whether `message` at `pointer` is the server's refusal of the answer there, still in force. */
  isServerRefusal(pointer: string, message: string): boolean {
    return this.answerRefusalsIn(this.current).get(pointer)?.includes(message) ?? false;
  }

  /** The server's refusals whose refused answer is still the answer in `data`, by pointer. */
  private answerRefusalsIn(data: Answers): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [pointer, refusal] of this.refusedAnswers) {
      if (canonicalJson(getByPointer(data, pointer) ?? null) === refusal.answer) {
        out.set(pointer, refusal.messages);
      }
    }
    return out;
  }

  /** Whether the answer at `pointer` is a file the server refused (its reason is the message). */
  isRefused(pointer: string): boolean {
    return this.refusalsIn(this.current).has(pointer);
  }

  /** The refusals whose refused file is still the answer in `data`, by pointer. */
  private refusalsIn(data: Answers): Map<string, string> {
    const out = new Map<string, string>();
    for (const [pointer, refusal] of this.refusedFiles) {
      if (canonicalJson(getByPointer(data, pointer) ?? null) === refusal.answer) {
        out.set(pointer, refusal.message);
      }
    }
    return out;
  }

  /** The part of `errorSchema` the current step asks (all of it on a review step or one page). */
  private forStep(errorSchema: ErrorSchema<Answers>): ErrorSchema<Answers> {
    const step = this.currentStep();
    if (!step || step.review) return errorSchema;
    const fields = new Set(stepFields(step));
    return Object.fromEntries(
      Object.entries(errorSchema).filter(([key]) => fields.has(key)),
    ) as ErrorSchema<Answers>;
  }

  /** rjsf committed a change (a pause in typing, a blur, a choice, a widget's write). */
  commit(answers: Answers): void {
    this.current = answers;
    if (this.scheduled) return;
    this.scheduled = true;
    // rjsf may report a change while rendering (defaults filled in its constructor)
    queueMicrotask(() => this.afterChange());
  }

  /** The user reached a field (focus): from now on changes are theirs and are kept. */
  focused(): void {
    this.interacted = true;
  }

  /** The user left a field: it shows its errors from now on. */
  touch(id: string): void {
    this.interacted = true;
    this.touched.add(id);
    // after rjsf has applied a change committed in the same event
    queueMicrotask(() => this.refresh());
  }

  private afterChange(): void {
    this.scheduled = false;
    const current = this.current;
    this.engine.answers.set(current);
    // Key order is rjsf's business (it reorders on change): compare the answers, not the text.
    const json = canonicalJson(current);
    if (!this.interacted && !this.resumed) this.baseline = json;
    // Change mode resubmits the answers as they stand: nothing has to differ first.
    this.status.set({ dirty: !!this.changeMode || json !== this.baseline });
    if (this.interacted) this.persistence?.save(current, { step: this.stepIndex.get() });
    if (this.validationDelayMs > 0) {
      clearTimeout(this.validationTimer);
      this.validationTimer = setTimeout(() => this.refresh(), this.validationDelayMs);
    } else this.refresh();
  }

  /**
   * The first question step before `index` that does not pass (its errors are the step's), or
   * undefined: a step may be shown only once the steps before it pass (Forward in the browser's
   * history cannot skip a step that was never passed).
   */
  firstInvalidStepBefore(index: number): number | undefined {
    if (!this.steps) return undefined;
    const { errorSchema } = this.validate();
    const withErrors = new Set(Object.keys(errorSchema).filter((key) => key !== '__errors'));
    for (let i = 0; i < Math.min(index, this.steps.length); i++) {
      const step = this.steps[i]!;
      if (!step.review && stepFields(step).some((name) => withErrors.has(name))) return i;
    }
    return undefined;
  }

  /**
   * What leaving now would lose, by prompt: the answers the form holds that `kept` (the
   * draft's filter) leaves out, and each chosen file. Empty while the form is unchanged.
   */
  unkeptAnswers(kept: (answers: Answers) => Answers): string[] {
    if (!this.status.get().dirty) return [];
    const answers = this.current;
    const keptAnswers = kept(answers);
    // Everything is kept (the server holds every answer): nothing to walk. A page asks this on
    // every change of the answers, and on opening a 50-person application several times.
    if (keptAnswers === answers) return [];
    const prompt = (pointer: string) =>
      questionAt(this.form, answers, pointer)?.prompt ?? fromPointer(pointer).at(-1) ?? '';
    // Prefilled answers (the signed-in email) come back with the page: nothing to lose.
    const prefilled = new Set(Object.keys(this.prefilled));
    const dropped = droppedPointers(answers, keptAnswers).filter(
      (pointer) => !prefilled.has(fromPointer(pointer)[0] ?? ''),
    );
    if (dropped.length === 0) return [];
    const files = this.engine.files.forAnswers(answers);
    const lost = dropped.map((pointer) =>
      files[pointer] ? `${prompt(pointer)} (${files[pointer].name})` : prompt(pointer),
    );
    return [...new Set(lost)];
  }

  /**
   * The files still being sent, by prompt and name ('Form W-2 (w2.pdf)'): leaving the page now
   * stops their uploads, and they never arrive.
   */
  uploadsUnderWay(): string[] {
    return this.engine.uploads.sending().map((pointer) => {
      const prompt =
        questionAt(this.form, this.current, pointer)?.prompt ?? fromPointer(pointer).at(-1) ?? '';
      const name = this.engine.files.get(pointer)?.name;
      return name ? `${prompt} (${name})` : prompt;
    });
  }

  /**
   * Opens one item of a list (`/affiliatedPersons`) for editing in place (the list's dialog): a
   * view of this session whose answers are the page's with the item being edited in its place,
   * validated by the page's validator. Nothing reaches the page's answers before `save`.
   */
  editListItem(listPointer: string, index: number | null, itemSchema: RJSFSchema): ListItemEdit {
    return new ListItemEdit(this, listPointer, index, itemSchema);
  }

  /** Validates now: the step's validity, its error list and the errors fields show. */
  refresh(): void {
    clearTimeout(this.validationTimer);
    const { errorSchema } = this.validate();
    const step = this.forStep(errorSchema);
    const entries = errorEntries(step, this.idPrefix, '', this.current);
    this.status.set({ valid: entries.length === 0 });
    this.stepErrors.set(
      sameEntries(this.stepErrors.get(), entries) ? this.stepErrors.get() : entries,
    );
    // A list's (or group's) own messages show once something inside it was worked on, and a
    // list holding items says what its items break together at once (a total over 100 %, a
    // restored application's included): the applicant acts on it there (issue 37 §3).
    const touchedWithin = (id: string) => {
      for (const touched of this.touched) if (touched.startsWith(`${id}_`)) return true;
      return false;
    };
    const lists = new Set(
      entries
        .filter((entry) => entry.given && Array.isArray(getByPointer(this.current, entry.pointer)))
        .map((entry) => entry.id),
    );
    const shown = filterErrorSchema(
      step,
      (id) =>
        this.attempted ||
        this.touched.has(id) ||
        lists.has(id) ||
        (id !== this.idPrefix && touchedWithin(id)),
      this.idPrefix,
    ) as ErrorSchema<Answers>;
    const previous = this.shownErrors.get();
    if (JSON.stringify(previous ?? {}) !== JSON.stringify(shown)) this.shownErrors.set(shown);
  }

  /** Shows every error of the step and asks the view to focus the first. */
  private showAll(): void {
    this.attempted = true;
    this.status.set({ submitAttempted: true });
    this.refresh();
    this.focusRequests.set(this.focusRequests.get() + 1);
  }

  /** Shows the message of one field (the first still needed) and asks the view to focus it. */
  reveal(id: string): void {
    this.touched.add(id);
    this.refresh();
    this.focusRequests.set(this.focusRequests.get() + 1);
  }

  /**
   * Validates the current step; if it passes, clears touched flags and moves to the next step.
   * Otherwise every error of the step shows and focus moves to the first.
   */
  next(): boolean {
    this.refresh();
    if (!this.status.get().valid) {
      this.showAll();
      return false;
    }
    if (!this.steps || this.isLastStep()) return true;
    this.goTo(this.stepIndex.get() + 1);
    return true;
  }

  back(): void {
    if (this.stepIndex.get() > 0) this.goTo(this.stepIndex.get() - 1);
  }

  /** To an earlier step (Edit on the review), or the next one through `next`. */
  goTo(index: number): void {
    if (!this.steps || index < 0 || index >= this.steps.length) return;
    this.touched.clear();
    this.attempted = false;
    this.status.set({ submitAttempted: false });
    const moved = index !== this.stepIndex.get();
    this.stepIndex.set(index);
    this.shownErrors.set(undefined);
    this.refresh();
    // Leaving a step saves at once, with the step it reopens at.
    if (moved && (this.interacted || this.restored)) {
      this.persistence?.save(this.current, { step: index });
      this.persistence?.flush();
    }
  }

  /** Reset Form: forgets the draft, the answers and the files; back to the first step. */
  reset(): void {
    this.persistence?.clear();
    this.engine.files.clear();
    this.current = { ...this.prefilled };
    this.engine.answers.set(this.current);
    this.baseline = canonicalJson(this.current);
    this.interacted = false;
    this.resumed = false;
    this.touched.clear();
    this.attempted = false;
    this.status.set({ dirty: false, submitAttempted: false });
    this.stepIndex.set(0);
    this.shownErrors.set(undefined);
    this.generation.set(this.generation.get() + 1);
    this.refresh();
  }

  /** Writes a pending draft now (the view is going away). */
  flush(): void {
    this.persistence?.flush();
  }

  /**
   * Validates all answers and, if they pass, calls `send` with them (hidden ones left out) and
   * the chosen files. The session counts as submitting until `send` settles; success forgets the
   * draft, a rejection keeps everything for another try (the page shows the failure).
   */
  async submit(
    send: (
      answers: Answers,
      files: Record<string, File>,
      /** Pointers whose file the server already holds: their bytes are not sent again. */
      held: ReadonlySet<string>,
    ) => void | Promise<void>,
  ): Promise<boolean> {
    if (this.status.get().submitting) return false;
    const { valid } = this.validate();
    if (!valid) {
      this.showAll();
      return false;
    }
    const answers = omitHiddenAnswers(this.form, this.current);
    this.status.set({ submitting: true });
    try {
      await send(
        answers,
        this.engine.files.forAnswers(answers),
        this.engine.files.heldFor(answers),
      );
      if (this.persistence?.submitted) this.persistence.submitted();
      else this.persistence?.clear();
      this.baseline = canonicalJson(this.current);
      this.status.set({ dirty: false, submitted: true });
      return true;
    } catch {
      return false; // the page reports the failure; answers and draft stay
    } finally {
      this.status.set({ submitting: false });
    }
  }

  /**
   * The form holds answers a draft cannot keep (a chosen file, an SSN, a date of birth, a
   * signature): leaving now would lose them.
   */
  holdsUnkeptAnswers(draftFilter: (answers: Answers) => Answers): boolean {
    if (!this.status.get().dirty) return false;
    if (Object.keys(this.engine.files.forAnswers(this.current)).length > 0) return true;
    return canonicalJson(draftFilter(this.current)) !== canonicalJson(this.current);
  }
}

/**
 * Whether an answer was given (something to fix when it fails) rather than still needed: not
 * absent, not blank text, not an empty list or group.
 */
function isGiven(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/**
 * The messages of an ErrorSchema with their fields' ids, in the schema's order; with `answers`,
 * each says whether its answer was given (an answer to fix) or is still needed.
 */
export function errorEntries(
  errorSchema: ErrorSchema,
  id = 'root',
  pointer = '',
  answers?: Answers,
): ErrorEntry[] {
  const node = errorSchema as { __errors?: string[] } & Record<string, unknown>;
  const given = answers !== undefined && isGiven(getByPointer(answers, pointer));
  const out: ErrorEntry[] = (node.__errors ?? []).map((message) => ({
    id,
    pointer,
    message,
    ...(given ? { given } : {}),
  }));
  for (const [key, child] of Object.entries(node)) {
    if (key !== '__errors' && child && typeof child === 'object') {
      out.push(
        ...errorEntries(
          child as ErrorSchema,
          `${id}_${key}`,
          toPointer([...fromPointer(pointer), key]),
          answers,
        ),
      );
    }
  }
  return out;
}

function sameEntries(a: ErrorEntry[], b: ErrorEntry[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => x.id === b[i]!.id && x.message === b[i]!.message && x.given === b[i]!.given)
  );
}

/**
 * One list item being edited (see FormSession.editListItem): its working answers, the errors its
 * fields show (a field once left, every field after a failed Save) and the page's validation of
 * them. A new item is edited at the end of the list.
 */
export class ListItemEdit {
  readonly index: number;
  readonly pointer: string;
  /** The errors the item's fields show, in rjsf's shape, relative to the item. */
  readonly shownErrors = new ValueStore<ErrorSchema<Answers> | undefined>(undefined);
  /** Messages of the item as a whole (no field of its own to show them by). */
  readonly itemErrors = new ValueStore<string[]>([]);
  /** Bumped when the view must move focus to the first shown error. */
  readonly focusRequests = new ValueStore(0);
  readonly isNew: boolean;
  private working: Answers;
  private readonly initial: string;
  private readonly touched = new Set<string>();
  private attempted = false;

  constructor(
    private readonly session: FormSession,
    readonly listPointer: string,
    index: number | null,
    private readonly itemSchema: RJSFSchema,
  ) {
    const rows = this.rows();
    this.isNew = index === null || index >= rows.length;
    this.index = this.isNew ? rows.length : index!;
    this.pointer = toPointer([...fromPointer(listPointer), String(this.index)]);
    const row = rows[this.index];
    // A new item starts from the schema's defaults, as the page's form starts from its own.
    this.working =
      row && typeof row === 'object'
        ? { ...(row as Answers) }
        : ((session.schemaUtils.getDefaultFormState(itemSchema, {}) as Answers | undefined) ?? {});
    this.initial = canonicalJson(this.working);
    // Widgets that read a sibling answer (the region its country) read the item being edited.
    session.engine.answers.set(this.view());
  }

  /** The dialog closed without saving: widgets read the page's answers again. */
  close(): void {
    this.session.engine.answers.set(this.session.answers());
  }

  /** The list as the page's answers hold it now (not as some render saw it). */
  private rows(): unknown[] {
    let node: unknown = this.session.answers();
    for (const key of fromPointer(this.listPointer)) {
      node = node && typeof node === 'object' ? (node as Answers)[key] : undefined;
    }
    return Array.isArray(node) ? node : [];
  }

  /** The item's working answers. */
  answers(): Answers {
    return this.working;
  }

  /** The element id of the item's fields' prefix ('root_affiliatedPersons_1'). */
  get id(): string {
    return idOfPointer(this.pointer);
  }

  /** The answer at `path` (relative to the item, as rjsf hands it) changed. */
  change(path: ReadonlyArray<string | number>, value: unknown): void {
    this.working = setIn(this.working, path.map(String), value) as Answers;
    this.session.engine.answers.set(this.view());
    this.refresh();
  }

  touch(id: string): void {
    this.touched.add(id);
    this.refresh();
  }

  /** Something was typed or chosen: closing without saving would lose it. */
  isDirty(): boolean {
    return this.changedPrompts().length > 0;
  }

  /**
   * What Discard would lose, by prompt ('First name', 'SSN'): each answer of the item that
   * differs from when the dialog opened. A text typed and erased again is no change.
   */
  changedPrompts(): string[] {
    const before = JSON.parse(this.initial) as Answers;
    const same = (a: unknown, b: unknown) =>
      canonicalJson(givenOrNothing(a)) === canonicalJson(givenOrNothing(b));
    const names = [...new Set([...Object.keys(before), ...Object.keys(this.working)])];
    const view = this.view();
    const item = fromPointer(this.pointer);
    return names
      .filter((name) => !same(before[name], this.working[name]))
      .map(
        (name) => questionAt(this.session.form, view, toPointer([...item, name]))?.title ?? name,
      );
  }

  /** The page's answers with this item in its place (a new one at the end). */
  private view(): Answers {
    const rows = [...this.rows()];
    rows[this.index] = this.working;
    return setIn(this.session.answers(), fromPointer(this.listPointer), rows) as Answers;
  }

  /** The item's errors under the page's validator (every one, touched or not). */
  private errors(): ErrorSchema<Answers> {
    const view = this.view();
    const { errorSchema } = this.session.validate(view, { collapse: false });
    let node: unknown = errorSchema;
    for (const key of fromPointer(this.pointer)) {
      node = node && typeof node === 'object' ? (node as Answers)[key] : undefined;
    }
    // Inside the dialog the item is evident: 'SSN required', not 'Affiliated person 1: SSN required'.
    const prefix = `${questionAt(this.session.form, view, this.pointer)?.prompt ?? ''}: `;
    return withoutPrefix(node ?? {}, prefix) as ErrorSchema<Answers>;
  }

  private refresh(): void {
    const errors = this.errors();
    const shown = filterErrorSchema(
      errors,
      (id) => this.attempted || this.touched.has(id),
      this.id,
    ) as ErrorSchema<Answers>;
    const { __errors: own, ...fields } = shown as ErrorSchema<Answers> & { __errors?: string[] };
    if (JSON.stringify(this.shownErrors.get() ?? {}) !== JSON.stringify(fields)) {
      this.shownErrors.set(fields as ErrorSchema<Answers>);
    }
    const next = own ?? [];
    const previous = this.itemErrors.get();
    if (next.join('\n') !== previous.join('\n')) this.itemErrors.set(next);
  }

  /**
   * Save: the item's answers as they are now (a field's pending text flushed by the view first)
   * pass, or every message shows at once and focus moves to the first. Returns the list to
   * commit, or undefined when the item does not pass.
   */
  save(): unknown[] | undefined {
    const errors = errorEntries(this.errors(), this.id, this.pointer);
    if (errors.length > 0) {
      this.attempted = true;
      this.refresh();
      this.focusRequests.set(this.focusRequests.get() + 1);
      return undefined;
    }
    const rows = [...this.rows()];
    rows[this.index] = this.working;
    return rows;
  }
}

/** The uiSchema without the root's title (the page shows it as its heading). */
function withoutTitle(uiSchema: CompiledForm['uiSchema']): UiSchema {
  const options = uiSchema['ui:options'] as object | undefined;
  return { ...uiSchema, 'ui:options': { ...options, label: false } } as UiSchema;
}

/** An empty text, or the empty object rjsf puts for an unanswered file or group, is no answer. */
function givenOrNothing(value: unknown): unknown {
  if (value === '' || value === null) return undefined;
  if (
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  ) {
    return undefined;
  }
  return value;
}

function withoutPrefix(node: unknown, prefix: string): unknown {
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Answers).map(([key, child]) => [
      key,
      key === '__errors' && Array.isArray(child)
        ? child.map((message) =>
            typeof message === 'string' && message.startsWith(prefix)
              ? message.slice(prefix.length)
              : message,
          )
        : withoutPrefix(child, prefix),
    ]),
  );
}

/** A copy of `target` with `value` at `path` (`undefined` removes it); arrays stay arrays. */
function setIn(target: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(target)) {
    const copy = [...(target as unknown[])];
    copy[Number(head)] = setIn(copy[Number(head)], rest, value);
    return copy;
  }
  const copy: Answers = target && typeof target === 'object' ? { ...(target as Answers) } : {};
  const next = setIn(copy[head], rest, value);
  if (next === undefined) delete copy[head];
  else copy[head] = next;
  return copy;
}
