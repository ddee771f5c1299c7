/**
 * The session's persistence on the server (issue 17): the applicant's application, saved about a
 * second after the last change, at once on leaving a step, and with `keepalive` when the page
 * goes away. One save is under way at a time; a failed one is retried with a growing wait and
 * nothing is lost meanwhile (the answers stay in the page, and a browser draft without sensitive
 * answers stays as the offline fallback). A save from a stale revision (another window saved) is
 * merged question by question and saved again. Changes not yet on the server are also kept in
 * the browser with the revision they were made from (unsentChanges.ts, filtered as a draft is):
 * a reload or a crash of the page brings them back over the server's application, and they are
 * sent once the server answers again.
 */
import { canonicalJson } from '../../shared/forms/model/bundleForm';
import { isFileReference } from '../../shared/forms/model/types';
import { ApiError, NetworkError, NETWORK_FAILURE_MESSAGE } from '../api/client';
import {
  isUnauthenticated,
  SessionRenewalDeclined,
  withSessionRenewal,
} from '../app/sessionExpiry';
import {
  conflictingApplication,
  deleteApplicationFile,
  saveApplication,
  uploadApplicationFile,
  type Application,
} from '../api/applications';
import { createDraftSaver, clearDraft, DRAFT_DELAY_MS, loadDraft, type DraftSaver } from './drafts';
import { ValueStore, type FileUploader } from './engine';
import type { Answers, SaveContext, SessionPersistence } from './session';
import { fromPointer, toPointer } from '../../shared/forms/model/pointer';
import {
  clearUnsent,
  clearUploads,
  fillUnkept,
  forgetUpload,
  loadUnsent,
  loadUploads,
  recordUpload,
  writeUnsent,
  type UnsentChanges,
  type UploadUnderWay,
} from './unsentChanges';

/** About a second after the last change (issue 17). */
const SAVE_DELAY_MS = 1000;
/** Retries wait 1 s, 2 s, 4 s … up to this. */
const MAX_RETRY_DELAY_MS = 30_000;
/** Save and finish later says it did not save once the server has not answered for this long. */
export const SAVE_NOW_WAIT_MS = 8000;

/** What the status region beside the form's buttons says. */
export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: Date }
  | { kind: 'retrying'; /** The server's refusal, or the network's failure. */ reason: string }
  /** The sign-in ended: saving waits for a new one (retried meanwhile). */
  | { kind: 'expired' };

interface ServerApplicationOptions {
  formId: string;
  /** The application as the server held it when the page opened (null: none yet). */
  application: Application | null;
  /** What a browser draft may keep (no files, signatures or sensitive answers). */
  draftFilter: (answers: Answers) => Answers;
  saveDelayMs?: number;
  /** The first retry's wait (doubled each time). */
  retryDelayMs?: number;
}

/**
 * The merge after a 409: for each question, the page's answer where the page changed it since
 * `base` (the answers of the revision it saved from), otherwise the server's. Objects (an
 * address) merge by their questions; a list (affiliated persons) is one answer. Returns the
 * merged answers and the pointers where the server's answer replaced the page's.
 */
export function mergeAnswers(
  base: Answers,
  local: Answers,
  server: Answers,
): { merged: Answers; taken: string[] } {
  const taken: string[] = [];
  const merge = (b: unknown, l: unknown, s: unknown, path: string[]): unknown => {
    if (isObject(l) && isObject(s)) {
      const out: Answers = {};
      const baseObject = isObject(b) ? b : {};
      for (const key of new Set([...Object.keys(l), ...Object.keys(s)])) {
        const value = merge(baseObject[key], l[key], s[key], [...path, key]);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    if (!same(l, b)) return l; // the page changed it: the page's wins
    if (!same(l, s)) taken.push(toPointer(path));
    return s;
  };
  return { merged: (merge(base, local, server, []) ?? {}) as Answers, taken };
}

const isObject = (value: unknown): value is Answers =>
  !!value && typeof value === 'object' && !Array.isArray(value);
const same = (a: unknown, b: unknown) =>
  a === b || (a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b));

/** The answers without file references the server holds no file for (an upload never finished). */
function withHeldFilesOnly(application: Application): Answers {
  const out = structuredClone(application.answers);
  const drop = (node: unknown, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node as Answers)) {
      const pointer = toPointer([...path, key]);
      if (isFileReference(child) && !application.files[pointer]) {
        if (Array.isArray(node)) continue;
        delete (node as Answers)[key];
      } else drop(child, [...path, key]);
    }
  };
  drop(out, []);
  return out;
}

/**
 * Changes kept in the browser (`local`, made from `base`) laid over the application as the
 * server holds it now: merged question by question as a 409 is (`mergeAnswers`), then with what
 * the browser never keeps (sensitive answers, files, signatures) taken from the server's, also
 * inside lists. `changed`: the result differs from what the server holds (something to send).
 */
function overServerAnswers(
  base: Answers,
  local: Answers,
  server: Answers,
  filter: (answers: Answers) => Answers,
): { answers: Answers; taken: string[]; changed: boolean } {
  const serverSafe = filter(server);
  const { merged, taken } = mergeAnswers(base, local, serverSafe);
  return {
    answers: fillUnkept(merged, server, serverSafe),
    taken,
    changed: !same(merged, serverSafe),
  };
}

/** `answers` with `value` at `pointer` (`undefined` removes it). */
function setAt(answers: Answers, pointer: string, value: unknown): Answers {
  const keys = fromPointer(pointer);
  const copy = structuredClone(answers);
  let node: Answers = copy;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node[key]) && !Array.isArray(node[key])) node[key] = {};
    node = node[key] as Answers;
  }
  const last = keys.at(-1);
  if (last === undefined) return copy;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/**
 * The application on the server as a `SessionPersistence`, with its save state (the status
 * region), the conflict notice, `saveNow` (Save and finish later) and the uploader of its files.
 */
export class ServerApplication implements SessionPersistence {
  readonly origin = 'server' as const;
  readonly formId: string;
  readonly state = new ValueStore<SaveState>({ kind: 'idle' });
  /** Set once when a save met another window's changes and both were kept. */
  readonly merged = new ValueStore(false);
  /** The application as loaded (its files, change request, carried-over prompts). */
  readonly application: Application | null;
  /** Where the answers that opened the form came from (the server, or this device's draft). */
  readonly restoredFrom: 'server' | 'device' | undefined;
  /**
   * Set when the page opened on changes this browser kept that the server did not hold (typed
   * while it could not be reached): `taken`, the pointers of answers the server's application
   * changed elsewhere meanwhile (both kept, as after a 409).
   */
  readonly restoredUnsent: { taken: string[] } | undefined;
  /** Files that were still uploading when the page was last left, and did not arrive. */
  readonly lostUploads: readonly UploadUnderWay[];
  /** Called with the merged answers after a 409, for the session to show them. */
  onMerged: ((answers: Answers) => void) | undefined;

  private readonly draft: DraftSaver;
  private readonly saveDelayMs: number;
  private readonly retryDelayMs: number;
  private readonly initial: Answers | undefined;
  private revision: number;
  /** The answers as the server holds them at `revision` (what a merge compares against). */
  private base: Answers;
  private pending: { answers: Answers; step: number | null } | undefined;
  /** The change a save is carrying now (still unsent until the server answers). */
  private sending: { answers: Answers; step: number | null } | undefined;
  private last: { answers: Answers; step: number | null } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private unsentTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Opened without the server's answers (offline, from this device's draft): the first 409 takes
   * back from the server's copy what the draft could not keep.
   */
  private fillFromServer = false;
  /**
   * Reset Form pressed, and no save has reached the server since: what is sent replaces its
   * application whole; nothing is merged back from it (an SSN, a file), here or after a reload.
   */
  private resetting = false;
  private inFlight: Promise<void> | undefined;
  private failures = 0;
  private stopped = false;
  private readonly waiters: Array<(saved: boolean) => void> = [];

  constructor(private readonly options: ServerApplicationOptions) {
    this.formId = options.formId;
    this.application = options.application;
    this.saveDelayMs = options.saveDelayMs ?? SAVE_DELAY_MS;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.draft = createDraftSaver(options.formId, options.draftFilter);
    const application = options.application;
    const unsent = loadUnsent(options.formId);
    const uploads = loadUploads(options.formId);
    this.revision = application?.revision ?? 0;
    if (application && application.status !== 'submitted' && unsent?.reset) {
      // Reset offline, then reloaded: the reset still goes, with what was given since.
      this.base = application.answers;
      this.state.set({ kind: 'saved', at: new Date(application.savedAt) });
      this.resetting = true;
      this.initial = unsent.answers;
      this.pending = { answers: unsent.answers, step: unsent.step ?? 0 };
      this.restoredUnsent = { taken: [] };
      this.restoredFrom = Object.keys(this.initial).length > 0 ? 'device' : undefined;
      clearUploads(options.formId);
      this.lostUploads = [];
    } else if (application && application.status !== 'submitted') {
      const held = withHeldFilesOnly(application);
      this.base = application.answers;
      this.state.set({ kind: 'saved', at: new Date(application.savedAt) });
      // Changes made here that the server did not get (typed offline, then reloaded): laid over
      // its application, merged as a 409 is when it moved on since.
      const restored =
        unsent &&
        overServerAnswers(
          unsent.revision === application.revision ? options.draftFilter(held) : unsent.base,
          unsent.answers,
          held,
          options.draftFilter,
        );
      if (restored?.changed) {
        this.initial = restored.answers;
        this.pending = { answers: restored.answers, step: unsent?.step ?? application.step };
        this.restoredUnsent = { taken: restored.taken };
      } else {
        this.initial = held;
        if (unsent) clearUnsent(options.formId);
      }
      this.restoredFrom = Object.keys(this.initial).length > 0 ? 'server' : undefined;
      this.lostUploads = uploads.filter((upload) => {
        const arrived = application.files[upload.pointer]?.name === upload.name;
        if (arrived) forgetUpload(options.formId, upload.pointer, upload.name);
        return !arrived;
      });
    } else {
      // Nothing on the server yet, or it could not be reached: this device's draft, if any.
      this.initial = loadDraft(options.formId);
      this.base = unsent?.base ?? {};
      this.resetting = !!unsent?.reset;
      this.fillFromServer = !this.resetting;
      if (unsent) this.pending = { answers: this.initial ?? unsent.answers, step: unsent.step };
      this.restoredFrom =
        this.initial && Object.keys(this.initial).length > 0 ? 'device' : undefined;
      this.lostUploads = uploads;
    }
  }

  /**
   * The page is open: changes kept from an earlier visit that the server did not get go now.
   * Called once the page shows them (an effect: calling it again sends nothing twice).
   */
  resume(): void {
    if (!this.pending || this.stopped || this.inFlight) return;
    this.draft.save(this.pending.answers);
    void this.send();
  }

  /** The connection came back (the browser's `online`): a save that failed goes again now. */
  retryNow(): void {
    if (this.failures > 0 && this.pending && !this.stopped) void this.send();
  }

  load(): Answers | undefined {
    return this.initial;
  }

  loadStep(): number | undefined {
    return this.restoredFrom === 'server' ? (this.application?.step ?? undefined) : undefined;
  }

  /** The pointers whose file the server holds (they open as chosen). */
  heldFiles(): string[] {
    return this.restoredFrom === 'server' ? Object.keys(this.application?.files ?? {}) : [];
  }

  save(answers: Answers, context: SaveContext = {}): void {
    if (this.stopped) return;
    this.pending = { answers, step: context.step ?? this.last?.step ?? null };
    this.draft.save(answers);
    this.keepUnsent();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.send(), this.saveDelayMs);
  }

  /** Saves a pending change now (leaving a step). */
  flush(): void {
    this.draft.flush();
    if (this.unsentTimer) this.writeUnsentNow();
    if (this.pending) void this.send();
  }

  /**
   * The page is going away: the pending change goes out with `keepalive`, which outlives it. Its
   * answer never reaches this page, so the change stays pending: a page the browser keeps in its
   * back/forward cache (its timers frozen, not ended) sends it again when shown again (a 409 if
   * the keepalive save landed, merged with nothing lost).
   */
  flushOnPageHide(): void {
    this.draft.flush();
    if (this.unsentTimer) this.writeUnsentNow();
    if (!this.pending || this.stopped) return;
    const { answers, step } = this.pending;
    const body = { answers, baseRevision: this.revision, step };
    // Browsers refuse a keepalive body over 64 kB; such a save is sent as an ordinary one.
    const small = JSON.stringify(body).length < 60_000;
    void saveApplication(this.formId, body, { keepalive: small }).catch(() => undefined);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.send(), this.saveDelayMs);
  }

  /**
   * Saves now and resolves true once every change is on the server (Save and finish later);
   * false when this attempt failed, or the server has not answered in `SAVE_NOW_WAIT_MS`
   * (retries go on, and the changes stay kept in the browser meanwhile).
   */
  saveNow(answers: Answers, context: SaveContext = {}): Promise<boolean> {
    this.pending = { answers, step: context.step ?? this.last?.step ?? null };
    this.draft.save(answers);
    this.draft.flush();
    this.writeUnsentNow();
    const done = new Promise<boolean>((resolve) => {
      const timeout = setTimeout(() => answer(false), SAVE_NOW_WAIT_MS);
      const answer = (saved: boolean) => {
        clearTimeout(timeout);
        const index = this.waiters.indexOf(answer);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve(saved);
      };
      this.waiters.push(answer);
    });
    void this.send();
    return done;
  }

  /** Reset Form: the server's application is emptied (files included), the draft forgotten. */
  clear(): void {
    this.draft.cancel();
    clearDraft(this.formId);
    this.forgetUnsent();
    clearUploads(this.formId);
    clearTimeout(this.timer);
    this.resetting = true;
    this.pending = { answers: {}, step: 0 };
    void this.send();
  }

  /** Submitted: nothing more is saved from this page; the draft is forgotten. */
  submitted(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.pending = undefined;
    this.draft.cancel();
    clearDraft(this.formId);
    this.forgetUnsent();
    clearUploads(this.formId);
  }

  /** Nothing waits to be saved (leaving loses nothing but what a failed save still holds). */
  holdsEverything(): boolean {
    const state = this.state.get().kind;
    return !this.pending && (state === 'saved' || state === 'idle');
  }

  /**
   * Sends what waits to be saved now (the applicant is leaving the page): true once the server
   * holds every answer, false when this attempt failed (retries go on).
   */
  saveBeforeLeaving(): Promise<boolean> {
    if (this.holdsEverything()) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    const done = new Promise<boolean>((resolve) => this.waiters.push(resolve));
    this.draft.flush();
    void this.send();
    return done;
  }

  /** The uploader of this application's files (the widget shows progress and refusals). */
  uploader(): FileUploader {
    return {
      upload: async (pointer, file, onProgress) => {
        // Its name is kept while it goes: a reload before it arrives can then name it.
        recordUpload(this.formId, pointer, file.name);
        // An expired session asks to sign in again in place, then sends the file again.
        const uploaded = await withSessionRenewal(() =>
          uploadApplicationFile(this.formId, pointer, file, file.name, onProgress),
        ).finally(() => forgetUpload(this.formId, pointer, file.name));
        const reference = { name: uploaded.name, type: uploaded.type, size: uploaded.size };
        // The server set the file's answer in a new revision: that is the base from now on.
        if (uploaded.revision > this.revision) {
          this.revision = uploaded.revision;
          this.base = setAt(this.base, pointer, reference);
        }
        return reference;
      },
      remove: async (pointer) => {
        await withSessionRenewal(() => deleteApplicationFile(this.formId, pointer));
      },
    };
  }

  private async send(): Promise<void> {
    if (this.stopped) return;
    clearTimeout(this.timer);
    if (this.inFlight) return this.inFlight; // the next round picks up what is pending
    this.inFlight = this.round();
    try {
      await this.inFlight;
    } finally {
      this.inFlight = undefined;
    }
    if (this.pending && this.failures === 0) await this.send();
  }

  private async round(): Promise<void> {
    const change = this.pending;
    if (!change) return this.settle(true);
    this.pending = undefined;
    this.sending = change;
    this.state.set({ kind: 'saving' });
    try {
      // An expired session asks to sign in again in a dialog, then the same save goes again.
      const saved = await withSessionRenewal(async () => {
        try {
          return await saveApplication(this.formId, {
            answers: change.answers,
            baseRevision: this.revision,
            step: change.step,
          });
        } catch (error) {
          // Said in the status region while the sign-in dialog is open.
          if (isUnauthenticated(error)) this.state.set({ kind: 'expired' });
          throw error;
        }
      });
      this.revision = saved.revision;
      this.base = change.answers;
      this.last = change;
      this.failures = 0;
      this.fillFromServer = false;
      this.resetting = false;
      this.sending = undefined;
      this.state.set({ kind: 'saved', at: new Date(saved.savedAt) });
      // The server holds everything: nothing unsent is kept here any more.
      if (!this.pending) {
        this.forgetUnsent();
        this.settle(true);
      } else this.keepUnsent();
    } catch (error) {
      this.sending = undefined;
      const server = conflictingApplication(error);
      if (server) {
        this.resolveConflict(change, server);
        this.keepUnsent();
        return;
      }
      // Put back what was not saved, unless a newer change replaced it meanwhile.
      this.pending ??= change;
      this.writeUnsentNow();
      this.failed(error);
    }
  }

  /** Another window saved: each question keeps this page's change, the others take the server's. */
  private resolveConflict(change: { answers: Answers; step: number | null }, server: Application) {
    const local = this.pending?.answers ?? change.answers;
    // Opened on this device's draft: what a draft never keeps comes back from the server's copy
    // (no change of another window's to announce). After Reset Form nothing comes back.
    const filled = this.resetting
      ? { answers: local, taken: [] }
      : this.fillFromServer
        ? overServerAnswers(this.base, local, withHeldFilesOnly(server), this.options.draftFilter)
        : undefined;
    const { merged, taken } = filled
      ? { merged: filled.answers, taken: filled.taken }
      : mergeAnswers(this.base, local, server.answers);
    this.fillFromServer = false;
    this.revision = server.revision;
    this.base = server.answers;
    this.pending = { answers: merged, step: this.pending?.step ?? change.step };
    this.failures = 0;
    if (taken.length > 0 || (filled && !same(merged, local))) this.onMerged?.(merged);
    if (taken.length > 0) this.merged.set(true);
    // send() goes on with the merged answers from the new revision
  }

  /** Keeps what the server does not hold yet in the browser, as a draft is kept (debounced). */
  private keepUnsent(): void {
    clearTimeout(this.unsentTimer);
    this.unsentTimer = setTimeout(() => this.writeUnsentNow(), DRAFT_DELAY_MS);
  }

  private writeUnsentNow(): void {
    clearTimeout(this.unsentTimer);
    this.unsentTimer = undefined;
    const unsent = this.pending ?? this.sending;
    if (!unsent || this.stopped) return;
    const filter = this.options.draftFilter;
    const record: UnsentChanges = {
      revision: this.revision,
      base: filter(this.base),
      answers: filter(unsent.answers),
      step: unsent.step,
      ...(this.resetting ? { reset: true as const } : {}),
    };
    writeUnsent(this.formId, record);
  }

  private forgetUnsent(): void {
    clearTimeout(this.unsentTimer);
    this.unsentTimer = undefined;
    clearUnsent(this.formId);
  }

  private failed(error: unknown): void {
    this.failures += 1;
    this.settle(false);
    // Signing in again was declined: the answers wait on the page; the next change asks again.
    if (error instanceof SessionRenewalDeclined || isUnauthenticated(error)) {
      this.state.set({ kind: 'expired' });
      clearTimeout(this.timer);
      return;
    }
    this.state.set({ kind: 'retrying', reason: failureReason(error) });
    const wait = Math.min(this.retryDelayMs * 2 ** (this.failures - 1), MAX_RETRY_DELAY_MS);
    clearTimeout(this.timer);
    // A change made meanwhile sends earlier (its own debounce replaces this wait).
    this.timer = setTimeout(() => void this.send(), wait);
  }

  private settle(saved: boolean): void {
    for (const resolve of this.waiters.splice(0)) resolve(saved);
  }
}

function failureReason(error: unknown): string {
  if (error instanceof NetworkError) return NETWORK_FAILURE_MESSAGE;
  if (error instanceof ApiError) return error.message;
  return NETWORK_FAILURE_MESSAGE;
}
