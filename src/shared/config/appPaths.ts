/**
 * The customer app's pages under /clearing, as its router (src/web/app/routes.tsx) draws them: the
 * server answers any other address under /clearing with the app's not-found page and status 404
 * (issue 38 §4), not with 200. `:formId` is a registration form's id, `*` anything below.
 * tests/unit/web/appPaths.test.ts keeps this list and the router's table the same.
 */
import { DISCLOSURE_CATEGORIES } from '../api/disclosures';

export const APP_PATHS: readonly string[] = [
  '',
  'signup',
  'signin',
  'user/verify-email',
  'user/reset-password',
  'user/accept-invite',
  'logout',
  'home',
  'registration',
  'registration/:formId',
  'registration/:formId/changes',
  'regulation/disclosures',
  ...DISCLOSURE_CATEGORIES.map((category) => `regulation/disclosures/${category}`),
  'admin/*',
  'dev/forms/:formId?',
];

/**
 * Whether `path` (below /clearing, without the query) is a page of the app; `formIds` are the
 * registration forms' ids, the only ones `:formId` takes. The forms preview (`dev/…`, any form
 * of the folder) is a page only in development.
 */
export function isAppPath(
  path: string,
  formIds: readonly string[],
  options: { development: boolean },
): boolean {
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  const given = parts.length === 1 && parts[0] === '' ? [] : parts;
  return APP_PATHS.some((pattern) => {
    if (pattern.startsWith('dev/') && !options.development) return false;
    const wanted = pattern === '' ? [] : pattern.split('/');
    for (let i = 0; i < wanted.length; i += 1) {
      const part = wanted[i]!;
      if (part === '*') return true;
      // The preview's form: any one segment, or none.
      if (part === ':formId?') return given.length === i || given.length === i + 1;
      const at = given[i];
      if (at === undefined) return false;
      if (part === ':formId') {
        if (!formIds.includes(decodeSegment(at))) return false;
      } else if (part !== at) return false;
    }
    return wanted.length === given.length;
  });
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
