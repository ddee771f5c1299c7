import { MARKET_CHANNELS, type SubscribeRequest } from '../../shared/api/market';

/** Bounds on one subscribe message, so a client cannot make us do unbounded work. */
const MAX_PRODUCT_CODES = 20;

type ParseResult = { ok: true; request: SubscribeRequest } | { ok: false; message: string };

/**
 * Reads one client message: `{"type":"subscribe"|"unsubscribe","product_codes":[…],"channels":[…]}`.
 * `channels` may be left out and then means every channel. Unknown product codes refuse the whole
 * message, so a subscription is all or nothing.
 */
export function parseClientMessage(raw: string, knownProducts: readonly string[]): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, message: 'Messages must be JSON.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'Messages must be JSON objects.' };
  }
  const { type, product_codes: codes, channels } = value as Record<string, unknown>;
  if (type !== 'subscribe' && type !== 'unsubscribe') {
    return { ok: false, message: "type must be 'subscribe' or 'unsubscribe'." };
  }
  if (
    !Array.isArray(codes) ||
    codes.length === 0 ||
    codes.length > MAX_PRODUCT_CODES ||
    !codes.every((code) => typeof code === 'string')
  ) {
    return {
      ok: false,
      message: `product_codes must list 1 to ${MAX_PRODUCT_CODES} product codes.`,
    };
  }
  const unknown = codes.filter((code: string) => !knownProducts.includes(code));
  if (unknown.length > 0) {
    return { ok: false, message: `Unknown product code: ${unknown.join(', ').slice(0, 200)}.` };
  }
  const all: readonly string[] = MARKET_CHANNELS;
  const list = channels === undefined ? [...MARKET_CHANNELS] : channels;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every((channel) => typeof channel === 'string' && all.includes(channel))
  ) {
    return { ok: false, message: `channels must be some of: ${MARKET_CHANNELS.join(', ')}.` };
  }
  return {
    ok: true,
    request: {
      type,
      product_codes: [...new Set(codes as string[])],
      channels: [...new Set(list as SubscribeRequest['channels'])],
    },
  };
}
