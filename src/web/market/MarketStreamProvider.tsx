import type { ReactNode } from 'react';
import type { MarketStream } from './marketStream';
import { MarketStreamContext } from './useMarketData';

/** Gives the components below a particular stream (tests feed one by hand). */
export function MarketStreamProvider({
  stream,
  children,
}: {
  stream: MarketStream;
  children: ReactNode;
}) {
  return <MarketStreamContext.Provider value={stream}>{children}</MarketStreamContext.Provider>;
}
