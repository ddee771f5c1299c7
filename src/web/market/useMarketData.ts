import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import { MARKET_CHANNELS, type MarketChannel } from '../../shared/api/market';
import { onClientSessionEnd } from '../app/session';
import type { MarketState } from './marketReducer';
import { MarketStream } from './marketStream';

/** The stream components use; tests and stories provide their own through the provider. */
export const MarketStreamContext = createContext<MarketStream | null>(null);

let sharedStream: MarketStream | undefined;

/**
 * The app-wide stream, created on first use. Signing out closes it at once (the server would end
 * it within a minute): nothing more arrives for the old session, and the next user starts afresh.
 */
export function sharedMarketStream(): MarketStream {
  if (!sharedStream) {
    const stream = new MarketStream();
    const forget = onClientSessionEnd(() => {
      forget();
      stream.close();
      if (sharedStream === stream) sharedStream = undefined;
    });
    // Closed while the page is hidden, so the page may enter the back/forward cache.
    window.addEventListener('pagehide', () => stream.suspend());
    window.addEventListener('pageshow', (event) => {
      if (event.persisted) stream.resume();
    });
    sharedStream = stream;
  }
  return sharedStream;
}

/** The app-wide stream, unless a provider gives another. */
function useMarketStream(): MarketStream {
  const provided = useContext(MarketStreamContext);
  return provided ?? sharedMarketStream();
}

/**
 * Subscribes to products' channels while the component is mounted (kept 10 s after unmount) and
 * returns the live market state.
 */
export function useMarketData(
  productCodes: readonly string[],
  channels: readonly MarketChannel[] = MARKET_CHANNELS,
): MarketState {
  const stream = useMarketStream();
  // Joined, so callers may pass fresh arrays on each render without resubscribing.
  const products = productCodes.join(',');
  const channelList = channels.join(',');
  useEffect(() => {
    if (!products || !channelList) return;
    return stream.acquire(products.split(','), channelList.split(',') as MarketChannel[]);
  }, [stream, products, channelList]);
  return useSyncExternalStore(stream.subscribeState, stream.getState, stream.getState);
}
