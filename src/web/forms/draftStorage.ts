/**
 * Where form drafts live: localStorage keys 'clearing.draft.<formId>' (and, for an application
 * the server does not hold whole yet, 'clearing.draft.<formId>.unsent'), with the names of files
 * still uploading in this tab's sessionStorage under the same prefix. Kept apart from drafts.ts
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

/** This tab's sessionStorage (the names of files being uploaded), or undefined where disabled. */
export function uploadStorage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** Removes every form draft, unsent record and upload record (at sign-out). */
export function clearDrafts(): void {
  for (const store of [draftStorage(), uploadStorage()]) {
    if (!store) continue;
    const keys: string[] = [];
    for (let i = 0; i < store.length; i += 1) {
      const key = store.key(i);
      if (key?.startsWith(DRAFT_PREFIX)) keys.push(key);
    }
    for (const key of keys) store.removeItem(key);
  }
}
