import { useSyncExternalStore } from 'react';

/** What a page needs to enable its submit button (spec: disabled while submitting, invalid or unchanged). */
export interface FormStatus {
  /** The answers pass validation (hidden answers left out). */
  valid: boolean;
  /** The answers differ from those the form opened with. */
  dirty: boolean;
  /** onSubmit has been called and has not settled yet. */
  submitting: boolean;
  /** A submit was attempted (every field now shows its errors). */
  submitAttempted: boolean;
  /** The answers were sent and taken: nothing is waited for any more. */
  submitted: boolean;
  /** valid && dirty && !submitting. */
  canSubmit: boolean;
}

const INITIAL_STATUS: FormStatus = {
  valid: false,
  dirty: false,
  submitting: false,
  submitAttempted: false,
  submitted: false,
  canSubmit: false,
};

/** The status of one form, observable without re-rendering the form itself. */
export class FormStatusStore {
  private status = INITIAL_STATUS;
  private readonly listeners = new Set<(status: FormStatus) => void>();
  get = (): FormStatus => this.status;
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  set(patch: Partial<Omit<FormStatus, 'canSubmit'>>): void {
    const next = { ...this.status, ...patch };
    next.canSubmit = next.valid && next.dirty && !next.submitting;
    const same = (Object.keys(next) as Array<keyof FormStatus>).every(
      (key) => next[key] === this.status[key],
    );
    if (same) return;
    this.status = next;
    for (const listener of this.listeners) listener(next);
  }
}

export function useFormStatus(store: FormStatusStore): FormStatus {
  return useSyncExternalStore(store.subscribe, store.get);
}
