import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  apiFetch,
  ApiError,
  browserLocation,
  NETWORK_FAILURE_MESSAGE,
  NetworkError,
} from '../../src/web/api/client';
import { getCurrentUser } from '../../src/web/api/get-current-user';
import { signIn } from '../../src/web/api/sign-in';
import { json } from './renderApp';

describe('api client', () => {
  let assign: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    document.cookie = 'csrf_token=tok%2B1; path=/';
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    document.cookie = 'csrf_token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it('sends JSON with credentials and the CSRF header from the csrf_token cookie', async () => {
    const fetchMock = vi.fn().mockResolvedValue(json(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiFetch('accounts', { method: 'POST', body: { a: 1 } })).resolves.toEqual({
      ok: true,
    });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/exchange/api/web/accounts');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({
      'content-type': 'application/json',
      'x-csrf-token': 'tok+1',
    });
  });

  it('over https reads the CSRF token from the __Host- cookie (issue 39 §5), not a planted plain one', async () => {
    // jsdom serves http, where a browser refuses `__Host-` cookies: the cookie string is stubbed.
    vi.spyOn(document, 'cookie', 'get').mockReturnValue(
      'csrf_token=planted; __Host-csrf_token=tok%2B2',
    );
    const fetchMock = vi.fn().mockResolvedValue(json(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    await apiFetch('accounts', { method: 'POST', body: {} });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.headers).toMatchObject({ 'x-csrf-token': 'tok+2' });
  });

  it('throws an ApiError carrying errorMessage and incidentId', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(json(500, { errorMessage: 'Broken', incidentId: 'INC-1' })),
    );
    const error = await apiFetch('accounts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, message: 'Broken', incidentId: 'INC-1' });
    expect(assign).not.toHaveBeenCalled();
  });

  it('redirects a 401 to the exchange sign-in with the current path and the message', async () => {
    window.history.pushState({}, '', '/clearing/home?tab=2');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(401, { errorMessage: 'No session' })));
    await expect(apiFetch('customer/org-1/statement')).rejects.toBeInstanceOf(ApiError);
    expect(assign).toHaveBeenCalledTimes(1);
    const url = new URL(assign.mock.calls[0]![0] as string, 'http://localhost');
    expect(url.pathname).toBe('/exchange/dashboard/signin');
    expect(url.searchParams.get('redirect')).toBe('/clearing/home?tab=2');
    expect(url.searchParams.get('notice')).toBe('unauthenticated');
    expect(url.searchParams.has('message')).toBe(false);
  });

  it('does not redirect on a 401 from auth/* calls or the current-user check', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(async () => json(401, { errorMessage: 'Wrong password' })),
    );
    await expect(signIn({ email: 'a@b.co', password: 'x' })).rejects.toThrow('Wrong password');
    await expect(getCurrentUser()).resolves.toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it('turns a call that got no answer into a NetworkError a customer can act on', async () => {
    const cut = new TypeError('Failed to fetch');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(cut));
    const error = await apiFetch('registration/individual', {
      method: 'POST',
      body: new FormData(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ message: NETWORK_FAILURE_MESSAGE, cause: cut });
    // An answer whose body breaks off on the way is no answer either.
    const broken = json(200, {});
    vi.spyOn(broken, 'text').mockRejectedValue(new TypeError('network error'));
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(broken));
    await expect(apiFetch('user')).rejects.toBeInstanceOf(NetworkError);
  });

  it('leaves a cancelled call a cancellation', async () => {
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(abort));
    await expect(apiFetch('user', { signal: controller.signal })).rejects.toBe(abort);
  });
});
