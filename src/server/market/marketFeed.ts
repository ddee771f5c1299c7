/**
 * The market behind every instance's stream: one simulator for the whole deployment. The
 * instance holding a PostgreSQL advisory lock (the leader) runs the simulator and publishes its
 * events with NOTIFY; every other instance LISTENs, keeps a mirror of the books (for snapshots
 * to new subscribers) and passes the events to its own WebSocket clients. An instance whose
 * clients want the market says so (`market_demand`) every few seconds; the leader runs the
 * simulator only while someone, anywhere, is watching. If the leader goes away its connection
 * (and lock) goes with it, and another instance takes over within seconds.
 */
import crypto from 'node:crypto';
import type pg from 'pg';
import type { BookMessage, MarketStatus, PriceLevel, StatusMessage } from '../../shared/api/market';
import { notify, releaseLock, tryHoldLock, type DatabaseListener } from '../db/notifications';
import type { MarketEvent, MarketListener, MarketSimulator, SimulatorOptions } from './simulator';

/** What a stream connection reads from the market. */
export interface MarketSource {
  readonly productCodes: string[];
  snapshot(symbol: string): BookMessage | undefined;
  status(symbol: string): StatusMessage | undefined;
  subscribe(listener: MarketListener): () => void;
}

const EVENTS_CHANNEL = 'market_events';
const DEMAND_CHANNEL = 'market_demand';
/** pg_advisory_lock key of the simulator's leader ("MKT1"). */
const LEADER_LOCK = 0x4d4b5431;
const ELECTION_EVERY_MS = 2000;
const DEMAND_EVERY_MS = 2000;
/** Remote demand older than this no longer keeps the simulator running. */
const DEMAND_TTL_MS = 3 * DEMAND_EVERY_MS;
/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_PAYLOAD = 7000;

interface EventBatch {
  from: string;
  events: MarketEvent[];
}

export class MarketFeed implements MarketSource {
  private readonly instanceId = crypto.randomBytes(8).toString('hex');
  private readonly listeners = new Set<MarketListener>();
  private readonly mirror = new BookMirror();
  private leaderClient: pg.PoolClient | undefined;
  private stopSimulator: (() => void) | undefined;
  private lastRemoteDemand = 0;
  private pending: MarketEvent[] = [];
  private flushScheduled = false;
  private timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(
    readonly simulator: MarketSimulator,
    private readonly pool: pg.Pool,
    private readonly notifications: DatabaseListener,
    private readonly log: (message: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    await this.notifications.listen(EVENTS_CHANNEL, (payload) => this.onRemoteEvents(payload));
    await this.notifications.listen(DEMAND_CHANNEL, (payload) => this.onDemand(payload));
    await this.elect();
    const every = (ms: number, work: () => void) => {
      const timer = setInterval(work, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(ELECTION_EVERY_MS, () => void this.elect());
    every(DEMAND_EVERY_MS, () => {
      if (!this.isLeader && this.listeners.size > 0) this.sendDemand(false);
      this.runWhileWatched();
    });
  }

  get isLeader(): boolean {
    return this.leaderClient !== undefined;
  }

  get productCodes(): string[] {
    return this.simulator.productCodes;
  }

  /** Whether this instance's simulator is running (only ever on the leader). */
  get running(): boolean {
    return this.simulator.running;
  }

  snapshot(symbol: string): BookMessage | undefined {
    return this.isLeader ? this.simulator.snapshot(symbol) : this.mirror.snapshot(symbol);
  }

  status(symbol: string): StatusMessage | undefined {
    return this.isLeader ? this.simulator.status(symbol) : this.mirror.status(symbol);
  }

  subscribe(listener: MarketListener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      if (this.isLeader) this.runWhileWatched();
      else this.sendDemand(true);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      this.runWhileWatched();
      // Unwatched, the leader stops publishing here: the mirror would go stale. The next
      // subscriber's hello brings fresh books.
      if (!this.isLeader) this.mirror.clear();
    };
  }

  /** Tests and operators: restart the market with options (leader only has a running market). */
  configure(options: Pick<SimulatorOptions, 'seed' | 'tickMs' | 'depth'>): void {
    this.simulator.configure(options);
  }

  setStatus(symbol: string, status: MarketStatus): void {
    this.simulator.setStatus(symbol, status);
  }

  async stop(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.listeners.clear();
    this.stopSimulator?.();
    this.stopSimulator = undefined;
    this.simulator.stop();
    const client = this.leaderClient;
    this.leaderClient = undefined;
    if (client) {
      await releaseLock(client, LEADER_LOCK).catch(() => {});
      client.release();
    }
  }

  /** Tries to become the leader (a session-level advisory lock held on one connection). */
  private async elect(): Promise<void> {
    if (this.closed || this.isLeader) return;
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch {
      return; // the database is away; the next round tries again
    }
    try {
      const locked = await tryHoldLock(client, LEADER_LOCK);
      if (!locked || this.closed) {
        client.release();
        return;
      }
    } catch (error) {
      client.release(error as Error);
      return;
    }
    this.leaderClient = client;
    const lost = (error?: Error) => {
      if (this.leaderClient !== client) return;
      this.leaderClient = undefined;
      this.stopSimulator?.();
      this.stopSimulator = undefined;
      client.release(error ?? new Error('connection ended'));
      this.log(`market leadership lost${error ? `: ${error.message}` : ''}`);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    this.log('market leader: this instance runs the simulator');
    this.runWhileWatched();
    // Followers' mirrors and this instance's own clients start from fresh books.
    if (this.listeners.size > 0 || this.remoteDemand) this.publishSnapshots();
  }

  private get remoteDemand(): boolean {
    return Date.now() - this.lastRemoteDemand < DEMAND_TTL_MS;
  }

  /** On the leader: the simulator runs exactly while someone, on any instance, is watching. */
  private runWhileWatched(): void {
    const watched = this.isLeader && (this.listeners.size > 0 || this.remoteDemand);
    if (watched && !this.stopSimulator) {
      this.stopSimulator = this.simulator.subscribe((event) => this.onLocalEvent(event));
    } else if (!watched && this.stopSimulator) {
      this.stopSimulator();
      this.stopSimulator = undefined;
    }
  }

  private onLocalEvent(event: MarketEvent): void {
    this.deliver(event);
    // Alone (no other instance's clients watching), nothing goes through the database.
    if (!this.remoteDemand) return;
    this.pending.push(event);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private deliver(event: MarketEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** Publishes the events of one step in as few notifications as fit. */
  private flush(): void {
    this.flushScheduled = false;
    const events = this.pending;
    this.pending = [];
    let batch: MarketEvent[] = [];
    let size = 0;
    const send = () => {
      if (batch.length === 0) return;
      const payload = JSON.stringify({ from: this.instanceId, events: batch } satisfies EventBatch);
      batch = [];
      size = 0;
      notify(this.pool, EVENTS_CHANNEL, payload).catch(() => {
        // The database is away: followers miss these; their clients get fresh books later.
      });
    };
    for (const event of events) {
      const length = JSON.stringify(event).length + 1;
      if (size + length > MAX_PAYLOAD) send();
      batch.push(event);
      size += length;
    }
    send();
  }

  /** Every product's book and status, for mirrors that start (or restart) from nothing. */
  private publishSnapshots(): void {
    for (const code of this.simulator.productCodes) {
      const status = this.simulator.status(code);
      if (status) this.onLocalEvent(status);
      const book = this.simulator.snapshot(code);
      if (book) this.onLocalEvent(book);
    }
  }

  private onRemoteEvents(payload: string): void {
    let batch: EventBatch;
    try {
      batch = JSON.parse(payload) as EventBatch;
    } catch {
      return;
    }
    if (batch.from === this.instanceId || this.isLeader) return;
    for (const event of batch.events) {
      this.mirror.apply(event);
      this.deliver(event);
    }
  }

  private sendDemand(hello: boolean): void {
    const payload = JSON.stringify({ from: this.instanceId, hello });
    notify(this.pool, DEMAND_CHANNEL, payload).catch(() => {});
  }

  private onDemand(payload: string): void {
    let demand: { from?: string; hello?: boolean };
    try {
      demand = JSON.parse(payload) as typeof demand;
    } catch {
      return;
    }
    if (demand.from === this.instanceId || !this.isLeader) return;
    this.lastRemoteDemand = Date.now();
    this.runWhileWatched();
    if (demand.hello) this.publishSnapshots();
  }
}

/** A follower's copy of the books, kept from the leader's book, level and status events. */
class BookMirror {
  private readonly books = new Map<
    string,
    { bids: Map<number, number>; asks: Map<number, number> }
  >();
  private readonly statuses = new Map<string, MarketStatus>();

  clear(): void {
    this.books.clear();
    this.statuses.clear();
  }

  apply(event: MarketEvent): void {
    switch (event.type) {
      case 'book':
        this.books.set(event.symbol, { bids: new Map(event.bids), asks: new Map(event.asks) });
        break;
      case 'level': {
        const book = this.books.get(event.symbol);
        const levels = event.side === 'Bid' ? book?.bids : book?.asks;
        if (!levels) break;
        if (event.quantity > 0) levels.set(event.price, event.quantity);
        else levels.delete(event.price);
        break;
      }
      case 'status':
        this.statuses.set(event.symbol, event.status);
        if (event.status === 'Close') this.books.delete(event.symbol);
        break;
      default:
        break;
    }
  }

  snapshot(symbol: string): BookMessage | undefined {
    const book = this.books.get(symbol);
    if (!book || this.statuses.get(symbol) === 'Close') return undefined;
    const sorted = (levels: Map<number, number>, descending: boolean): PriceLevel[] =>
      [...levels].sort(([a], [b]) => (descending ? b - a : a - b));
    return { type: 'book', symbol, asks: sorted(book.asks, false), bids: sorted(book.bids, true) };
  }

  status(symbol: string): StatusMessage | undefined {
    const status = this.statuses.get(symbol);
    return status && { type: 'status', symbol, status };
  }
}
