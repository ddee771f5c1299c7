import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { APP_PATHS, isAppPath } from '../../../src/shared/config/appPaths';
import { routes } from '../../../src/web/app/routes';

/** Every path the router draws, joined from its nested routes ('' for the index of /). */
function routerPaths(list: RouteObject[], prefix = ''): string[] {
  return list.flatMap((route) => {
    const here = route.path === undefined || route.path === '/' ? prefix : join(prefix, route.path);
    const own = route.index || (route.path !== undefined && route.path !== '/') ? [here] : [];
    return [...own, ...routerPaths(route.children ?? [], here)];
  });
}
const join = (a: string, b: string) => [a, b].filter(Boolean).join('/');

describe('the app paths the server knows (issue 38 §4)', () => {
  it('are exactly the router’s pages, the catch-all aside', () => {
    const drawn = new Set(routerPaths(routes).filter((path) => path !== '*'));
    expect(new Set(APP_PATHS)).toEqual(drawn);
  });

  it.each([
    ['', true],
    ['home', true],
    ['home/', true],
    ['registration/individual', true],
    ['registration/business/changes', true],
    ['registration/no-such-form', false],
    ['registration/affiliated-person', false],
    ['regulation/disclosures/capital-summary', true],
    ['regulation/disclosures/no-such-category', false],
    ['admin/registrations/42', true],
    ['this-does-not-exist', false],
    ['home/extra', false],
  ])('%j is a page: %s', (path, expected) => {
    expect(isAppPath(path, ['individual', 'business'], { development: false })).toBe(expected);
  });

  it('takes the forms preview as a page in development only', () => {
    expect(isAppPath('dev/forms/person', [], { development: true })).toBe(true);
    expect(isAppPath('dev/forms', [], { development: true })).toBe(true);
    expect(isAppPath('dev/forms/person', [], { development: false })).toBe(false);
  });
});
