/**
 * What this browser keeps of an application the server does not hold yet (issue 38 §2): the
 * answers a save has not delivered, with the revision they were made from, and the files that
 * were still uploading. The answers are filtered as a draft is (never files, agreements or the
 * answers the schema marks sensitive); they live under the drafts' prefix, so sign-out clears
 * them with the drafts. The names of files still uploading live in sessionStorage (this tab
 * only, gone with it): enough to name, after a reload, a file that did not arrive.
 */
import { canonicalJson } from '../../shared/forms/model/bundleForm';
import { isPlainObject as isObject, type Answers } from '../../shared/forms/model/schemaTypes';
import { isFileReference } from '../../shared/forms/model/types';
import { DRAFT_PREFIX, draftStorage, uploadStorage } from './draftStorage';

/** The changes a save has not delivered, as kept in the browser. */
export interface UnsentChanges {
  /** The revision of the application the changes were made from (0: none on the server yet). */
  revision: number;
  /** The answers of that revision, filtered as a draft is (what a merge compares against). */
  base: Answers;
  /** The answers with the changes, filtered as a draft is. */
  answers: Answers;
  /** The step the applicant was on. */
  step: number | null;
  /**
   * Reset Form was pressed and the server has not emptied its application yet: `answers` (what
   * was given since) replace the server's whole, nothing of its is taken back (no SSN, no file).
   */
  reset?: true;
}

/** A file that was being sent when the record was written. */
export interface UploadUnderWay {
  pointer: string;
  name: string;
}

const unsentKey = (formId: string) => `${DRAFT_PREFIX}${formId}.unsent`;
const uploadsKey = (formId: string) => `${DRAFT_PREFIX}${formId}.uploads`;

export function loadUnsent(formId: string): UnsentChanges | undefined {
  const parsed = readJson(draftStorage(), unsentKey(formId));
  if (!isObject(parsed)) return undefined;
  const { revision, base, answers, step, reset } = parsed;
  if (typeof revision !== 'number' || !isObject(base) || !isObject(answers)) return undefined;
  return {
    revision,
    base,
    answers,
    step: typeof step === 'number' ? step : null,
    ...(reset === true ? { reset } : {}),
  };
}

export function writeUnsent(formId: string, record: UnsentChanges): void {
  writeJson(draftStorage(), unsentKey(formId), record);
}

export function clearUnsent(formId: string): void {
  draftStorage()?.removeItem(unsentKey(formId));
}

/** The files recorded as still being sent for `formId`. */
export function loadUploads(formId: string): UploadUnderWay[] {
  const parsed = readJson(uploadStorage(), uploadsKey(formId));
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (entry): entry is UploadUnderWay =>
      isObject(entry) && typeof entry.pointer === 'string' && typeof entry.name === 'string',
  );
}

/** Records the upload of the file `name` now under way at `pointer` (replacing an earlier one). */
export function recordUpload(formId: string, pointer: string, name: string): void {
  const others = loadUploads(formId).filter((entry) => entry.pointer !== pointer);
  writeJson(uploadStorage(), uploadsKey(formId), [...others, { pointer, name }]);
}

/** The upload at `pointer` ended (arrived or failed here): forgotten, unless another replaced it. */
export function forgetUpload(formId: string, pointer: string, name: string): void {
  const uploads = loadUploads(formId);
  const next = uploads.filter((entry) => entry.pointer !== pointer || entry.name !== name);
  if (next.length === uploads.length) return;
  if (next.length === 0) uploadStorage()?.removeItem(uploadsKey(formId));
  else writeJson(uploadStorage(), uploadsKey(formId), next);
}

/** Said beside a file question whose upload the page was left during. */
export const lostUploadMessage = (name: string): string =>
  `${name} did not arrive: the page was left while it was uploading. Choose the file again.`;

export function clearUploads(formId: string): void {
  uploadStorage()?.removeItem(uploadsKey(formId));
}

/**
 * `answers` (filtered as a draft is) with what the filter left out taken back from `server`, the
 * application as the server holds it (`serverSafe`: the same filtered): an SSN, a date of birth,
 * a file the server holds, a signature, wherever `answers` has none of its own. Inside a list
 * (affiliated persons), an item takes them from the server's item with the same filtered
 * answers, or, where the list kept its length, from the item at its place, or else from the
 * one sharing most of its answers (edited after another was removed); an item matched to none
 * (added) takes nothing, and its sensitive answers are asked again.
 */
export function fillUnkept(answers: Answers, server: Answers, serverSafe: Answers): Answers {
  return fill(answers, server, serverSafe) as Answers;
}

function fill(local: unknown, server: unknown, serverSafe: unknown): unknown {
  if (isObject(local) && isObject(server) && !isFileReference(local)) {
    const safe = isObject(serverSafe) ? serverSafe : {};
    const out: Answers = { ...local };
    for (const [key, value] of Object.entries(server)) {
      if (!(key in safe)) {
        // Left out by the filter: the server's, unless this page gave one since.
        if (out[key] === undefined) out[key] = value;
      } else if (key in local) out[key] = fill(local[key], value, safe[key]);
    }
    return out;
  }
  if (Array.isArray(local) && Array.isArray(server) && Array.isArray(serverSafe)) {
    const used = new Set<number>();
    return local.map((item: unknown, index) => {
      let match = serverSafe.findIndex((each, at) => !used.has(at) && same(each, item));
      if (match < 0 && local.length === server.length && !used.has(index)) match = index;
      if (match < 0) match = likeliest(item, serverSafe, used);
      if (match < 0) return item;
      used.add(match);
      return fill(item, server[match], serverSafe[match]);
    });
  }
  return local;
}

const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/**
 * The server's item that `item` most likely is, edited here after another was removed (so
 * neither its answers nor its place match): the unused one sharing the most answers, at least
 * two and at least half of those either gives; -1 when none does (its sensitive answers are then
 * asked again rather than guessed).
 */
function likeliest(item: unknown, serverSafe: unknown[], used: Set<number>): number {
  if (!isObject(item)) return -1;
  let best = -1;
  let bestShared = 0;
  serverSafe.forEach((each, at) => {
    if (used.has(at) || !isObject(each)) return;
    const keys = new Set([...Object.keys(item), ...Object.keys(each)]);
    const shared = [...keys].filter(
      (key) => item[key] !== undefined && same(item[key], each[key]),
    ).length;
    if (shared >= 2 && shared * 2 >= keys.size && shared > bestShared) {
      best = at;
      bestShared = shared;
    }
  });
  return best;
}

function readJson(store: Storage | undefined, key: string): unknown {
  const raw = store?.getItem(key);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

function writeJson(store: Storage | undefined, key: string, value: unknown): void {
  try {
    store?.setItem(key, JSON.stringify(value));
  } catch {
    // full or disabled storage: the page still holds the answers and keeps trying to save
  }
}
