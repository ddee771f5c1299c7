/**
 * The delivery worker (issue 40 §5). Every instance that serves runs one: each `tick` claims the
 * due deliveries (db/webhooks.ts claimDueDeliveries: FOR UPDATE SKIP LOCKED and a lease, so no
 * two workers post one delivery at once, and a registration's later event waits for its earlier
 * one), posts each signed (signature.ts), records the attempt and either marks it delivered or
 * plans the next attempt: exponential backoff with jitter, for 72 hours from when it was queued,
 * then given up. Tests call `tick(now)` with the time they choose; no timer runs under `inject()`
 * (the loop starts when the server listens).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type pg from 'pg';
import { WEBHOOK_SIGNATURE_HEADER } from '../../shared/api/webhooks';
import { claimDueDeliveries, recordDeliveryAttempt, type ClaimedDelivery } from '../db/webhooks';
import type { FieldKeyRing } from '../fieldEncryption/keyRing';
import { signingSecrets } from './endpointSecret';
import { postEvent, type PostOutcome } from './postEvent';
import { cleanUpDeliveries } from './retention';
import { signatureHeader } from './signature';

/** The first retry's delay; each next one doubles, up to `MAX_DELAY_MS`. */
const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 6 * 60 * 60 * 1000;

/**
 * How long to wait after the `attempts`-th failed attempt: 30 s × 2^(attempts − 1), at most 6 h,
 * times a random factor in [0.5, 1) ("equal jitter"), so endpoints failing together do not all
 * come back at once. With the 72 hours a delivery is retried for, that is about 20 attempts.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
  return Math.round(ceiling * (0.5 + random() / 2));
}

interface DeliveryWorkerDeps {
  pool: pg.Pool;
  fieldKeys: FieldKeyRing;
  /** Production posts only to public https endpoints (endpointAddress.ts). */
  production: boolean;
  log?: FastifyBaseLogger | undefined;
  /** One attempt's deadline (default 10 s). */
  timeoutMs?: number;
  /** Deliveries claimed per tick (default 20). */
  batch?: number;
  random?: () => number;
}

/** How long a claim holds a delivery: well beyond an attempt's deadline. */
const LEASE_SECONDS = 300;

export class DeliveryWorker {
  private running: Promise<number> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: DeliveryWorkerDeps) {}

  /**
   * Posts every delivery due at `now` that no other worker holds; the number attempted. Ticks of
   * one worker never overlap (a tick asked for while one runs waits for it).
   */
  async tick(now: Date = new Date()): Promise<number> {
    while (this.running) await this.running.catch(() => {});
    this.running = this.deliverDue(now);
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  /** Ticks every `intervalMs` until `stop()` (a failed tick is logged; the next one tries again). */
  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.tick().catch((err: unknown) => this.deps.log?.warn({ err }, 'webhook delivery failed'));
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops the loop and waits for the tick under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  private async deliverDue(now: Date): Promise<number> {
    const claimed = await claimDueDeliveries(
      this.deps.pool,
      now,
      LEASE_SECONDS,
      this.deps.batch ?? 20,
    );
    // One claim holds at most one delivery per endpoint and registration: order is kept.
    await Promise.all(claimed.map((delivery) => this.deliver(delivery, now)));
    return claimed.length;
  }

  private async deliver(delivery: ClaimedDelivery, now: Date): Promise<void> {
    const body = JSON.stringify({
      id: delivery.event_id,
      type: delivery.event_type,
      createdAt: delivery.event_created_at.toISOString(),
      data: delivery.event_data,
    });
    let outcome: PostOutcome;
    try {
      const secrets = signingSecrets(
        this.deps.fieldKeys,
        delivery.endpoint_id,
        delivery.secret,
        now,
      );
      const timestamp = Math.floor(now.getTime() / 1000);
      outcome = await postEvent(
        delivery.url,
        body,
        {
          'content-type': 'application/json',
          'user-agent': 'NorthstarClearing-Webhooks/1',
          [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secrets, timestamp, body),
          'northstar-event-id': delivery.event_id,
          'northstar-delivery-id': delivery.id,
        },
        { production: this.deps.production, timeoutMs: this.deps.timeoutMs ?? 10_000 },
      );
    } catch (error) {
      // The secret cannot be opened (its key is not configured): retried, an operator told.
      this.deps.log?.error({ err: error, delivery: delivery.id }, 'webhook secret unreadable');
      outcome = {
        ok: false,
        statusCode: null,
        responseExcerpt: null,
        error: 'the signing secret cannot be read on this server',
        durationMs: 0,
      };
    }
    const attempts = delivery.attempts + 1;
    const retryAt = new Date(now.getTime() + retryDelayMs(attempts, this.deps.random));
    const next = outcome.ok
      ? ({ state: 'delivered' } as const)
      : retryAt > delivery.give_up_after
        ? ({ state: 'failed' } as const)
        : ({ state: 'pending', retryAt } as const);
    await recordDeliveryAttempt(
      this.deps.pool,
      { id: delivery.id, leasedUntil: delivery.leased_until },
      {
        attemptedAt: now,
        statusCode: outcome.statusCode,
        responseExcerpt: outcome.responseExcerpt,
        error: outcome.error,
        durationMs: outcome.durationMs,
      },
      next,
    );
  }
}

/** How often a serving instance offers to clean up old deliveries (one does at a time). */
const CLEANUP_EVERY_MS = 60 * 60 * 1000;

/**
 * The app's worker (`app.webhookDelivery`): it runs while the server listens (main.ts), never
 * under `inject()`, where tests tick it themselves. It looks for due deliveries every
 * `WEBHOOK_POLL_MS` (2 s); the cleanup of old deliveries (retention.ts) runs a minute after the
 * start, then hourly.
 */
export function registerWebhookDelivery(app: FastifyInstance): void {
  // A bad setting stops the start with one sentence (main.ts), not a worker that never runs.
  const settings = {
    WEBHOOK_RETENTION_DAYS: app.config.webhookRetentionDays,
    WEBHOOK_POLL_MS: app.config.webhookPollMs,
  };
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new Error(`${name} must be a positive number (it is ${value}).`);
    }
  }
  const worker = new DeliveryWorker({
    pool: app.db,
    fieldKeys: app.fieldKeys,
    production: app.config.production,
    log: app.log,
  });
  app.decorate('webhookDelivery', worker);
  let cleanup: Promise<unknown> = Promise.resolve();
  const timers: NodeJS.Timeout[] = [];
  const cleanUp = () => {
    cleanup = cleanUpDeliveries(app.db, app.config.webhookRetentionDays)
      .then((deleted) => {
        if (deleted) app.log.info(deleted, 'old webhook deliveries deleted');
      })
      .catch((err: unknown) => app.log.warn({ err }, 'webhook delivery cleanup failed'));
  };
  app.addHook('onListen', async () => {
    worker.start(app.config.webhookPollMs);
    timers.push(setTimeout(cleanUp, 60_000), setInterval(cleanUp, CLEANUP_EVERY_MS));
    for (const timer of timers) timer.unref();
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
    await Promise.all([worker.stop(), cleanup]);
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Posts the webhook deliveries due (webhooks/deliveryWorker.ts). */
    webhookDelivery: DeliveryWorker;
  }
}
