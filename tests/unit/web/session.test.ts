import { describe, expect, it } from 'vitest';
import type { User } from '../../../src/shared/api/auth';
import { postSignInPath, safeRedirectPath, signInPath } from '../../../src/web/app/session';

const registered: User = {
  id: 'u1',
  email: 'a@b.co',
  isNorthstarClearingStaff: false,
  details: { firstName: 'A', lastName: 'B', phoneNumber: '+12125550142', approved: false },
  orgDetails: { clearingOrgId: 'o1', name: 'A B' },
  organizationId: 'o1',
  roles: [],
};

describe('safeRedirectPath', () => {
  it.each([
    ['/clearing/home', '/home'],
    ['/clearing/regulation/disclosures?x=1', '/regulation/disclosures?x=1'],
    [null, null],
    ['/clearing', null],
    ['/exchange/dashboard', null],
    ['https://evil.example/clearing/home', null],
    ['//evil.example/clearing/', null],
    ['/clearing//evil.example', null],
    ['/clearing/\\evil', null],
    ['/clearing/logout', null],
    ['/clearing/signin?redirect=/clearing/home', null],
  ])('%j -> %j', (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });
});

describe('postSignInPath', () => {
  it('goes home, or to a safe redirect', () => {
    expect(postSignInPath(registered, null)).toBe('/home');
    expect(postSignInPath(registered, '/clearing/regulation/disclosures')).toBe(
      '/regulation/disclosures',
    );
    expect(postSignInPath(registered, 'https://evil.example')).toBe('/home');
  });

  it('goes to registration when details or orgDetails are missing', () => {
    expect(postSignInPath({ ...registered, details: null }, '/clearing/home')).toBe(
      '/registration',
    );
    expect(postSignInPath({ ...registered, orgDetails: null }, null)).toBe('/registration');
  });
});

describe('signInPath', () => {
  it('carries the notice key (never text) and the optional redirect as query parameters', () => {
    const url = new URL(signInPath('logged-out', '/clearing/home'), 'http://x');
    expect(url.pathname).toBe('/signin');
    expect(url.searchParams.get('notice')).toBe('logged-out');
    expect(url.searchParams.has('message')).toBe(false);
    expect(url.searchParams.get('redirect')).toBe('/clearing/home');
  });
});
