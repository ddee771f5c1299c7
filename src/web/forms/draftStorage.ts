/**
 * Where form drafts live: localStorage keys 'clearing.draft.<formId>'. Kept apart from drafts.ts
 * so that sign-out (in the sign-in bundle) can clear them without loading the draft filters.
 */
export const DRAFT_PREFIX = 'clearing.draft.';

/** localStorage, or undefined where the browser disables it. */
export function draftStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage disabled by the browser
  }
}

/** Removes every form draft (at sign-out). */
export function clearDrafts(): void {
  const store = draftStorage();
  if (!store) return;
  const keys: string[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key?.startsWith(DRAFT_PREFIX)) keys.push(key);
  }
  for (const key of keys) store.removeItem(key);
}
