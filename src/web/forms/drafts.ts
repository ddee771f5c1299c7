import type { Answers } from '../../shared/forms/model/schemaTypes';
import { clearDrafts, DRAFT_PREFIX, draftStorage } from './draftStorage';

/**
 * Form drafts in localStorage under 'clearing.draft.<formId>', written 300 ms after the last change
 * and restored when the form opens. A draft never holds files, agreements or answers the schema
 * marks sensitive (`x-sensitive`: SSN, passport number, date of birth): see docs/decisions.md,
 * Drafts.
 */
export const DRAFT_DELAY_MS = 300;
export { clearDrafts, DRAFT_PREFIX };

export function loadDraft(formId: string): Answers | undefined {
  const raw = draftStorage()?.getItem(DRAFT_PREFIX + formId);
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Answers)
      : undefined;
  } catch {
    return undefined;
  }
}

function saveDraft(formId: string, answers: Answers): void {
  try {
    draftStorage()?.setItem(DRAFT_PREFIX + formId, JSON.stringify(answers));
  } catch {
    // full or disabled storage: a draft is a convenience, never an error
  }
}

export function clearDraft(formId: string): void {
  draftStorage()?.removeItem(DRAFT_PREFIX + formId);
}

export interface DraftSaver {
  /** Saves `answers` (filtered) once no other change came for DRAFT_DELAY_MS. */
  save(answers: Answers): void;
  /** Writes a pending save now. */
  flush(): void;
  /** Drops a pending save. */
  cancel(): void;
}

export function createDraftSaver(
  formId: string,
  filter: (answers: Answers) => Answers,
  delay = DRAFT_DELAY_MS,
): DraftSaver {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: Answers | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending) saveDraft(formId, filter(pending));
    pending = undefined;
  };
  return {
    save(answers) {
      pending = answers;
      clearTimeout(timer);
      timer = setTimeout(flush, delay);
    },
    flush,
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}
