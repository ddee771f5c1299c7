import {
  MARKET_STREAM_PATH,
  type MarketChannel,
  type MarketClientMessage,
  type MarketServerMessage,
} from '../../shared/api/market';
import {
  initialMarketState,
  marketReducer,
  type MarketAction,
  type MarketState,
} from './marketReducer';

/** A subscription outlives its last user by this long (specification §4, §9). */
export const SUBSCRIPTION_KEEP_MS = 10_000;
/** Reconnect delays double from the first to the cap. */
const RECONNECT_FIRST_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;
/**
 * Market data reaches components at most this often. The feed sends about 35 messages a second;
 * drawing the panel for each kept a slow machine's page busy all the time (every other page task
 * waited), and no one reads a price that changes more than a few times a second.
 */
export const MARKET_DRAW_EVERY_MS = 250;

/** The part of the browser WebSocket the stream uses (tests pass a fake). */
export interface StreamSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

interface MarketStreamOptions {
  /** Default: `marketStreamUrl(window.location)`, read when connecting. */
  url?: () => string;
  createSocket?: (url: string) => StreamSocket;
  /** Jitter source for reconnect delays; tests pass `() => 1` for exact delays. */
  random?: () => number;
}

const OPEN = 1;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** ws:// on localhost, wss:// everywhere else (docs/decisions.md, Paths; access spec §9). */
export function marketStreamUrl(location: Pick<Location, 'hostname' | 'host'>): string {
  const scheme = LOCAL_HOSTS.has(location.hostname) ? 'ws' : 'wss';
  return `${scheme}://${location.host}${MARKET_STREAM_PATH}`;
}

/** The reconnect delay before attempt `attempt` (0-based): doubling, capped, with jitter. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const capped = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempt);
  // "Equal jitter": at least half the delay, so clients restarted together spread out.
  return Math.round(capped * (0.5 + random() / 2));
}

interface Subscription {
  productCode: string;
  channel: MarketChannel;
  users: number;
  /** Set while kept alive after the last user left. */
  expiry: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The live stream client: one socket, reference-counted subscriptions per product and channel,
 * reconnection with backoff, and the store (via `marketReducer`) that components read through
 * `useSyncExternalStore`. The socket opens with the first subscription and closes after the last
 * one expires.
 */
export class MarketStream {
  private state: MarketState = initialMarketState;
  private readonly listeners = new Set<() => void>();
  private readonly subscriptions = new Map<string, Subscription>();
  private socket: StreamSocket | undefined;
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  /** The server said reconnecting cannot succeed (session ended); wait for a new subscription. */
  private reconnectRefused = false;
  private readonly url: () => string;
  private readonly createSocket: (url: string) => StreamSocket;
  private readonly random: () => number;
  /** Market data held back until the next draw (see `MARKET_DRAW_EVERY_MS`). */
  private drawTimer: ReturnType<typeof setTimeout> | undefined;
  private lastDataDrawAt = -Infinity;

  constructor(options: MarketStreamOptions = {}) {
    this.url = options.url ?? (() => marketStreamUrl(window.location));
    this.createSocket =
      options.createSocket ?? ((url) => new WebSocket(url) as unknown as StreamSocket);
    this.random = options.random ?? Math.random;
  }

  /** For `useSyncExternalStore`. */
  readonly getState = (): MarketState => this.state;

  readonly subscribeState = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Applies one action to the store and tells components at once (tests feed it by hand). */
  dispatch(action: MarketAction): void {
    if (this.apply(action)) this.draw();
  }

  /**
   * Applies market data from the server; components hear of it at once after a quiet while,
   * else with the next draw, at most every `MARKET_DRAW_EVERY_MS`. The store is always current.
   */
  private dispatchMarketData(action: MarketAction): void {
    if (!this.apply(action) || this.drawTimer !== undefined) return;
    const wait = this.lastDataDrawAt + MARKET_DRAW_EVERY_MS - Date.now();
    if (wait <= 0) this.drawData();
    else this.drawTimer = setTimeout(() => this.drawData(), wait);
  }

  private apply(action: MarketAction): boolean {
    const next = marketReducer(this.state, action);
    if (next === this.state) return false;
    this.state = next;
    return true;
  }

  private drawData(): void {
    this.lastDataDrawAt = Date.now();
    this.draw();
  }

  /** Tells components the store changed, market data held back included. */
  private draw(): void {
    clearTimeout(this.drawTimer);
    this.drawTimer = undefined;
    for (const listener of this.listeners) listener();
  }

  /**
   * Starts using these products' channels; returns the release function. A subscription is sent
   * on first use and unsubscribed only 10 s after its last release, so a page that unmounts and
   * remounts quickly keeps its data.
   */
  acquire(productCodes: readonly string[], channels: readonly MarketChannel[]): () => void {
    const added: Subscription[] = [];
    const keys: string[] = [];
    for (const productCode of productCodes) {
      for (const channel of channels) {
        const key = `${productCode}\u0000${channel}`;
        keys.push(key);
        const existing = this.subscriptions.get(key);
        if (existing) {
          existing.users += 1;
          clearTimeout(existing.expiry);
          existing.expiry = undefined;
        } else {
          const subscription = { productCode, channel, users: 1, expiry: undefined };
          this.subscriptions.set(key, subscription);
          added.push(subscription);
        }
      }
    }
    this.reconnectRefused = false;
    if (this.socket?.readyState === OPEN) this.sendSubscriptions('subscribe', added);
    else if (!this.socket && !this.reconnectTimer) this.connect();

    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const key of keys) this.release(key);
    };
  }

  /**
   * The page is being hidden (`pagehide`): the socket closes, the subscriptions stay. An open
   * WebSocket keeps a page out of the browser's back/forward cache; closed, Back and Forward
   * restore the page at once, and `resume` reconnects.
   */
  suspend(): void {
    this.stopSocket();
    this.dispatch({ type: 'disconnect', reason: 'server_shutdown', reconnect: true });
    this.dispatch({ type: 'connection', state: 'idle' });
  }

  /** The page is shown again (`pageshow`): reconnects if anything is still subscribed. */
  resume(): void {
    if (this.socket || this.reconnectTimer || this.subscriptions.size === 0) return;
    this.reconnectRefused = false;
    this.connect();
  }

  /** Closes the socket and forgets every subscription (tests, sign-out). */
  close(): void {
    for (const subscription of this.subscriptions.values()) clearTimeout(subscription.expiry);
    this.subscriptions.clear();
    this.stopSocket();
    this.dispatch({ type: 'disconnect', reason: 'session_ended', reconnect: false });
  }

  private release(key: string): void {
    const subscription = this.subscriptions.get(key);
    if (!subscription) return;
    subscription.users -= 1;
    if (subscription.users > 0) return;
    subscription.expiry = setTimeout(() => this.expire(key), SUBSCRIPTION_KEEP_MS);
  }

  private expire(key: string): void {
    const subscription = this.subscriptions.get(key);
    if (!subscription || subscription.users > 0) return;
    this.subscriptions.delete(key);
    if (this.socket?.readyState === OPEN) this.sendSubscriptions('unsubscribe', [subscription]);
    this.dispatch({
      type: 'released',
      symbol: subscription.productCode,
      channel: subscription.channel,
    });
    if (this.subscriptions.size === 0) {
      this.stopSocket();
      this.dispatch({ type: 'connection', state: 'idle' });
    }
  }

  private connect(): void {
    this.reconnectTimer = undefined;
    this.dispatch({
      type: 'connection',
      state: this.attempt === 0 ? 'connecting' : 'reconnecting',
    });
    const socket = this.createSocket(this.url());
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.dispatch({ type: 'connection', state: 'open' });
      this.sendSubscriptions('subscribe', [...this.subscriptions.values()]);
    };
    socket.onmessage = (event) => this.onMessage(event.data);
    socket.onclose = () => this.onClose(socket);
    socket.onerror = () => {}; // a close event follows; that is where we act
  }

  private onMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: MarketServerMessage;
    try {
      message = JSON.parse(data) as MarketServerMessage;
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || typeof message.type !== 'string') return;
    if (message.type === 'disconnect') {
      if (!message.reconnect) this.reconnectRefused = true;
      this.dispatch(message);
    } else {
      this.dispatchMarketData(message);
    }
  }

  private onClose(socket: StreamSocket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    // Books without their updates would be wrong, so a lost connection counts as a disconnect.
    this.dispatch({ type: 'disconnect', reason: 'server_shutdown', reconnect: true });
    if (this.subscriptions.size === 0 || this.reconnectRefused) {
      this.attempt = 0;
      this.dispatch({ type: 'connection', state: 'idle' });
      return;
    }
    this.dispatch({ type: 'connection', state: 'reconnecting' });
    const delay = reconnectDelay(this.attempt, this.random);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private stopSocket(): void {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.attempt = 0;
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    socket.close(1000);
  }

  /** One message per channel, listing that channel's products. */
  private sendSubscriptions(
    type: MarketClientMessage['type'],
    subscriptions: readonly Subscription[],
  ): void {
    const byChannel = new Map<MarketChannel, string[]>();
    for (const { channel, productCode } of subscriptions) {
      byChannel.set(channel, [...(byChannel.get(channel) ?? []), productCode]);
    }
    for (const [channel, productCodes] of byChannel) {
      const message: MarketClientMessage = {
        type,
        product_codes: productCodes,
        channels: [channel],
      };
      this.socket?.send(JSON.stringify(message));
    }
  }
}
