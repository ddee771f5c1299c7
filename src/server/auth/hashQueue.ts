/**
 * A bounded, fair queue in front of the password hash. scrypt at the OWASP cost takes a core and
 * 128 MiB for a tenth of a second or more, so a burst of sign-ins (an attacker trying unknown
 * emails) must not pile up behind the thread pool and starve real users:
 * - at most `concurrency` hashes run at once;
 * - waiting work is taken round-robin across clients (IP addresses), so one client's burst
 *   delays another client by at most one hash per busy client;
 * - a client may have only `perClient` hashes waiting, and all clients `capacity`; beyond that
 *   the request is refused at once with 503 and Retry-After instead of waiting for seconds;
 * - trusted work (a sign-in from a browser holding a device cookie of that very account, OWASP's
 *   "device cookies", or giving the password the account last signed in with: signinHints.ts)
 *   has a slot of its own beyond `concurrency` and, when that is taken, waits in its own line (of
 *   `capacity` too, which guesses cannot fill), served before everyone else's: a burst of guesses
 *   from many addresses does not delay a returning user's hash.
 */
import os from 'node:os';
import { ClientError } from '../errors';

export const BUSY_MESSAGE = 'The portal is busy. Please try again in a moment.';

interface Waiting {
  start: () => void;
}

export class HashQueue {
  private running = 0;
  private readonly queues = new Map<string, Waiting[]>();
  private untrustedWaiting = 0;
  private readonly trustedLine: Waiting[] = [];

  constructor(
    readonly concurrency = Math.max(1, os.availableParallelism()),
    readonly perClient = 4,
    readonly capacity = 64,
    /**
     * Slots beyond `concurrency` that only trusted work may take: two, so that a returning
     * browser's sign-in does not wait for a new browser's of the same moment (with one, the bench's
     * returning user's p95 under a burst rose from under 2 to 2.2–2.8 times its no-load figure).
     */
    readonly trustedSlots = 2,
  ) {}

  /** How many hashes run now (the metrics read it). */
  get active(): number {
    return this.running;
  }

  /** How many hashes wait for a turn (tests and the bench watch it). */
  get queued(): number {
    return this.untrustedWaiting + this.trustedLine.length;
  }

  /**
   * Runs `work` when its turn comes (`trusted`: ahead of the round-robin line, and in a slot of
   * its own); refuses with 503 when the client's or the queue's room is full.
   */
  run<T>(client: string, work: () => Promise<T>, trusted = false): Promise<T> {
    if (trusted) {
      if (this.trustedLine.length === 0 && this.running < this.concurrency + this.trustedSlots) {
        return this.execute(client, work);
      }
      if (this.trustedLine.length >= this.capacity) return Promise.reject(busy());
      return new Promise<T>((resolve, reject) => {
        this.trustedLine.push({ start: () => this.execute(client, work).then(resolve, reject) });
      });
    }
    if (this.untrustedWaiting === 0 && this.running < this.concurrency)
      return this.execute(client, work);
    const line = this.queues.get(client) ?? [];
    if (line.length >= this.perClient || this.untrustedWaiting >= this.capacity) {
      return Promise.reject(busy());
    }
    return new Promise<T>((resolve, reject) => {
      line.push({ start: () => this.execute(client, work).then(resolve, reject) });
      this.queues.set(client, line);
      this.untrustedWaiting++;
    });
  }

  private async execute<T>(client: string, work: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.next(client);
    }
  }

  /**
   * Starts the first trusted work, or else the first waiting work of the client that has waited
   * longest for a turn, other than the client just served when someone else is waiting.
   */
  private next(served: string): void {
    if (this.trustedLine.length > 0 && this.running < this.concurrency + this.trustedSlots) {
      this.trustedLine.shift()!.start();
      return;
    }
    if (this.running >= this.concurrency) return;
    let chosen: [string, Waiting[]] | undefined;
    for (const entry of this.queues) {
      chosen ??= entry;
      if (entry[0] !== served) {
        chosen = entry;
        break;
      }
    }
    if (!chosen) return;
    const [client, queue] = chosen;
    const waiting = queue.shift()!;
    this.untrustedWaiting--;
    // Round-robin: the client goes to the back of the line (Map keeps insertion order).
    this.queues.delete(client);
    if (queue.length > 0) this.queues.set(client, queue);
    waiting.start();
  }
}

const busy = () => new ClientError(503, BUSY_MESSAGE, undefined, 1);

/** The queue every password hash of this process goes through. */
export const passwordHashQueue = new HashQueue();
