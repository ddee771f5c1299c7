/**
 * Coming back to a registration (issue 17): a link out of the form and Back mounts the page
 * again at once, when the earlier visit's copy of the application can still be in the query
 * cache (gcTime 0 removes it on a timer). The form opens on the application as the server holds
 * it now (the saves made since, the step it was left at), never on that copy.
 */
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  applicationQueryOptions,
  useApplication,
  type Application,
} from '../../src/web/api/applications';
import { testForm } from '../forms';
import {
  currentLocation,
  currentUserHandler,
  json,
  makeUser,
  mockApi,
  renderApp,
  unregisteredUser,
} from './renderApp';

function application(overrides: Partial<Application>): Application {
  return {
    formId: 'individual',
    schemaHash: 'h1',
    revision: 4,
    savedAt: '2026-11-25T13:00:00.000Z',
    step: 0,
    status: 'draft',
    answers: { firstName: 'Jane' },
    files: {},
    changeRequest: null,
    carriedOver: null,
    ...overrides,
  };
}

/** The first visit's copy: left on the first step. */
const EARLIER = application({ revision: 4, step: 0, answers: { firstName: 'Jane' } });
/** What the server holds after that visit's later saves: every answer, left on the review. */
const NOW = application({
  revision: 9,
  step: 1,
  answers: { ...(testForm('individual').example as Record<string, unknown>), lastName: 'Moreau' },
});

const gets = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(
    ([input, init]) =>
      String(input).endsWith('/applications/individual') && (init?.method ?? 'GET') === 'GET',
  ).length;

afterEach(() => vi.unstubAllGlobals());

describe('the application a page opens on', () => {
  it('a page mounted again before the earlier copy left the cache waits for the server’s answer, never shows that copy', async () => {
    let held = EARLIER;
    const fetchMock = mockApi({
      'GET applications/individual': () => json(200, { application: held }),
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const first = renderHook(() => useApplication('individual'), { wrapper });
    await waitFor(() => expect(first.result.current.data?.step).toBe(0));
    // The visit saves on (the server moves on), then the page goes and comes straight back:
    // mounted in the same task, before the cache's garbage collection timer could run.
    held = NOW;
    first.unmount();
    const seen: Array<number | null | undefined> = [];
    const again = renderHook(
      () => {
        const load = useApplication('individual');
        seen.push(load.isSuccess ? (load.data?.step ?? null) : undefined);
        return load;
      },
      { wrapper },
    );
    // Nothing of the earlier visit is taken: the page waits for this visit's answer.
    expect(again.result.current.isSuccess).toBe(false);
    expect(again.result.current.isPending).toBe(true);
    await waitFor(() => expect(again.result.current.data?.revision).toBe(9));
    expect(seen.filter((step) => step !== undefined)).not.toContain(0);
    expect(gets(fetchMock)).toBe(2);
  });

  it('a failed GET with an earlier copy cached is a failure to show (Try again), not that copy', async () => {
    let answer = () => json(503, { errorMessage: 'The service is busy.' });
    mockApi({ 'GET applications/individual': () => answer() });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(applicationQueryOptions('individual').queryKey, EARLIER);
    const { result } = renderHook(() => useApplication('individual'), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      ),
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.data).toBeUndefined();
    expect(result.current.error?.message).toBe('The service is busy.');
    answer = () => json(200, { application: NOW });
    void result.current.refetch();
    await waitFor(() => expect(result.current.data?.revision).toBe(9));
  });

  it('the registration page reopened with the earlier copy cached opens where the server says it was left, with its answers', async () => {
    mockApi({
      'GET user': currentUserHandler(unregisteredUser()),
      'GET config': () => new Response('{}'),
      'GET applications/individual': () => json(200, { application: NOW }),
    });
    const review = testForm('individual').steps!.find((step) => step.review)!;
    const { router, queryClient } = renderApp(
      `/clearing/registration/individual?step=${review.id}`,
    );
    queryClient.setQueryData(applicationQueryOptions('individual').queryKey, EARLIER);
    // A lazy page that loads the form engine: slow under jsdom on a shared machine.
    expect(
      await screen.findByRole('heading', { name: review.title, level: 2 }, { timeout: 15_000 }),
    ).toBeVisible();
    expect(screen.getByText('Moreau')).toBeVisible();
    expect(currentLocation(router).params.get('step')).toBe(review.id);
  });

  it('the changes page asks once for this visit and opens the form on that answer', async () => {
    const example = testForm('individual').example as Record<string, unknown>;
    const fetchMock = mockApi({
      'GET user': currentUserHandler(makeUser()),
      'GET config': () => new Response('{}'),
      'GET applications/individual': () =>
        json(200, {
          application: application({
            status: 'changes_requested',
            answers: example,
            changeRequest: {
              note: 'Please give the name on your passport.',
              fields: [{ path: '/lastName', prompt: 'Last name', note: 'As on the passport.' }],
              submitted: example,
            },
          }),
        }),
    });
    renderApp('/clearing/registration/individual/changes');
    expect(
      await screen.findByText('Please give the name on your passport.', undefined, {
        timeout: 15_000,
      }),
    ).toBeVisible();
    expect(await screen.findByText('As on the passport.')).toBeVisible();
    // The form inside the page was handed the answer: no second request, no second wait.
    expect(gets(fetchMock)).toBe(1);
  });

  it('the changes page opens at the first requested change, and says its step in the address', async () => {
    const business = testForm('business');
    const example = business.example as Record<string, unknown>;
    mockApi({
      'GET user': currentUserHandler(makeUser()),
      'GET config': () => new Response('{}'),
      'GET applications/business': () =>
        json(200, {
          application: application({
            formId: 'business',
            status: 'changes_requested',
            answers: example,
            changeRequest: {
              note: '',
              fields: [{ path: '/bizName', prompt: 'Business name', note: 'The registered name.' }],
              submitted: example,
            },
          }),
        }),
    });
    const step = business.steps!.find((candidate) =>
      candidate.sections.some((section) => section.fields.includes('bizName')),
    )!;
    const { router } = renderApp('/clearing/registration/business/changes');
    expect(
      await screen.findByText('The registered name.', undefined, { timeout: 20_000 }),
    ).toBeVisible();
    await waitFor(() => expect(currentLocation(router).params.get('step')).toBe(step.id));
    expect(currentLocation(router).pathname).toBe('/clearing/registration/business/changes');
  });
});
