import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useApplication } from '../../src/web/api/applications';
import { loadApplicationEarly, takeEarly } from '../../src/web/api/get-application';
import { loadApplicationForAddress } from '../../src/web/app/routes';
import { json, mockApi } from './renderApp';

const saved = {
  formId: 'business',
  schemaHash: 'h1',
  revision: 4,
  savedAt: '2026-11-25T13:00:00.000Z',
  step: 1,
  status: 'draft',
  answers: { businessName: 'Acme' },
  files: {},
  changeRequest: null,
  carriedOver: null,
};

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const applicationGets = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([input, init]) => {
    return String(input).endsWith('/applications/business') && (init?.method ?? 'GET') === 'GET';
  }).length;

afterEach(() => vi.unstubAllGlobals());

describe('the saved application, loaded beside the page’s code', () => {
  it('the page’s query takes the GET started early: one request, its answer', async () => {
    const fetchMock = mockApi({
      'GET applications/business': () => json(200, { application: saved }),
    });
    loadApplicationEarly('business');
    expect(applicationGets(fetchMock)).toBe(1);
    const { result } = renderHook(() => useApplication('business'), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.answers).toEqual({ businessName: 'Acme' });
    expect(applicationGets(fetchMock)).toBe(1);
  });

  it('an early GET that failed is reported by the page’s query, and a later visit asks again', async () => {
    const fetchMock = mockApi({
      'GET applications/business': () => json(503, { errorMessage: 'The service is busy.' }),
    });
    loadApplicationEarly('business');
    const first = renderHook(() => useApplication('business'), { wrapper });
    await waitFor(() => expect(first.result.current.isError).toBe(true));
    expect(applicationGets(fetchMock)).toBe(1);
    first.unmount();
    const again = renderHook(() => useApplication('business'), { wrapper });
    await waitFor(() => expect(again.result.current.isError).toBe(true));
    expect(applicationGets(fetchMock)).toBe(2);
  });

  it('no ordering of the early answer, the mount and the query cache leaves the page waiting', async () => {
    // Issue 26 §6: the page stayed on its loading line although the GET answered 200. The page's
    // load lived in the query cache, and a cache entry removed while its GET was on its way
    // (removeQueries, a cleared cache) was never answered: its observer waited on it forever.
    for (const order of ['answered first', 'mounted first', 'cache cleared in between']) {
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      mockApi({
        'GET applications/business': async () => {
          await answered;
          return json(200, { application: saved });
        },
      });
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const withClient = ({ children }: { children: ReactNode }) => (
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      );
      loadApplicationEarly('business');
      if (order === 'answered first') answer();
      const { result, unmount } = renderHook(() => useApplication('business'), {
        wrapper: withClient,
      });
      if (order === 'cache cleared in between') act(() => client.getQueryCache().clear());
      answer();
      await waitFor(() => expect(result.current.isSuccess, order).toBe(true));
      expect(result.current.data?.answers).toEqual({ businessName: 'Acme' });
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it('a GET on its way stands: the route starting it again asks nothing more', async () => {
    const fetchMock = mockApi({
      'GET applications/business': () => json(200, { application: saved }),
    });
    loadApplicationEarly('business');
    loadApplicationEarly('business');
    expect(applicationGets(fetchMock)).toBe(1);
    await expect(takeEarly('business')).resolves.toMatchObject({ revision: 4 });
  });

  it('a refused early GET is not kept: the next start asks again', async () => {
    let status = 401;
    const fetchMock = mockApi({
      'GET applications/business': () =>
        status === 200 ? json(200, { application: saved }) : json(status, { errorMessage: 'No.' }),
    });
    loadApplicationEarly('business');
    await waitFor(() => expect(applicationGets(fetchMock)).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    status = 200;
    loadApplicationEarly('business');
    expect(applicationGets(fetchMock)).toBe(2);
    await expect(takeEarly('business')).resolves.toMatchObject({ revision: 4 });
  });

  it('the app opened at a registration page’s address asks its application as it starts, and only there', async () => {
    const fetchMock = mockApi({
      'GET applications/business': () => json(200, { application: saved }),
    });
    for (const address of [
      '/clearing/home',
      '/clearing/registration',
      '/clearing/registration/nope',
    ]) {
      loadApplicationForAddress(address);
    }
    expect(applicationGets(fetchMock)).toBe(0);
    loadApplicationForAddress('/clearing/registration/business');
    expect(applicationGets(fetchMock)).toBe(1);
    await expect(takeEarly('business')).resolves.toMatchObject({ revision: 4 });
    loadApplicationForAddress('/clearing/registration/business/changes');
    expect(applicationGets(fetchMock)).toBe(2);
    await expect(takeEarly('business')).resolves.toMatchObject({ revision: 4 });
  });
});
