/** Test helpers: a stubbed fetch answering by "METHOD path", and the app in a memory router. */
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import type { User } from '../../src/shared/api/auth';
import { AppProviders } from '../../src/web/app/AppProviders';
import { ROUTER_BASENAME, routes } from '../../src/web/app/routes';

export type Handler = (body: unknown, init: RequestInit) => Response | Promise<Response>;

export function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** Stubs fetch; unknown calls answer 404. Keys look like 'POST auth/signin'. */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const path = url.replace(/^\/exchange\/api\/web\//, '');
    const key = `${init.method ?? 'GET'} ${path}`;
    const handler =
      handlers[key] ?? (key === 'GET auth/signin' ? authCheckOf(handlers) : undefined);
    if (!handler) return json(404, { errorMessage: 'Not found.' });
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    return handler(body, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/**
 * The sign-in check (200 Authenticated / NotAuthenticated) as the `GET user` handler implies it,
 * for tests that only say who is signed in.
 */
function authCheckOf(handlers: Record<string, Handler>): Handler | undefined {
  const user = handlers['GET user'];
  if (!user) return undefined;
  return async (body, init) => {
    const answer = await user(body, init);
    if (!answer.ok) return json(200, { status: 'NotAuthenticated' });
    const signedIn = (await answer.json()) as User;
    return json(200, {
      status: 'Authenticated',
      isNorthstarClearingStaff: signedIn.isNorthstarClearingStaff,
    });
  };
}

/** The JSON bodies sent to one "METHOD path". */
export function sentBodies(fetchMock: ReturnType<typeof mockApi>, key: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => {
      const path = String(input).replace(/^\/exchange\/api\/web\//, '');
      return `${init?.method ?? 'GET'} ${path}` === key;
    })
    .map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    email: 'avery@example.com',
    isNorthstarClearingStaff: false,
    details: { firstName: 'Avery', lastName: 'Stone', phoneNumber: '+12125550142', approved: true },
    orgDetails: { clearingOrgId: 'org-1', name: 'Avery Stone' },
    organizationId: 'org-1',
    roles: ['Administrator'],
    ...overrides,
  };
}

export const unregisteredUser = () =>
  makeUser({ details: null, orgDetails: null, organizationId: null });

/** The current-user check answering `user`, or 401 when null. */
export function currentUserHandler(user: User | null): Handler {
  return () => (user ? json(200, user) : json(401, { errorMessage: 'Not signed in.' }));
}

/** Renders the whole app at `path` (a full /clearing/... URL). */
export function renderApp(path: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(routes, { basename: ROUTER_BASENAME, initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/** Path (with the /clearing basename) and query of the router's current location. */
export function currentLocation(router: ReturnType<typeof createMemoryRouter>) {
  const { pathname, search } = router.state.location;
  return { pathname, params: new URLSearchParams(search) };
}
