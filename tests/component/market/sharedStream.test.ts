import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { endClientSession } from '../../../src/web/app/session';
import { sharedMarketStream } from '../../../src/web/market/useMarketData';

describe('the shared market stream', () => {
  it('is closed and replaced when the client session ends (sign-out)', () => {
    const first = sharedMarketStream();
    expect(sharedMarketStream()).toBe(first);
    const close = vi.spyOn(first, 'close');

    endClientSession(new QueryClient());
    expect(close).toHaveBeenCalledTimes(1);
    const next = sharedMarketStream();
    expect(next).not.toBe(first);

    // The old stream's handler went with it; the new stream has its own.
    const closeNext = vi.spyOn(next, 'close');
    endClientSession(new QueryClient());
    expect(close).toHaveBeenCalledTimes(1);
    expect(closeNext).toHaveBeenCalledTimes(1);
  });
});
