/**
 * The statement GET's answers, serialised once per organisation and kept in memory with their
 * ETag (issue 29 §3: statements change once a day, and reloads are most of the reads). A trigger
 * on `statements` notifies every instance on the database (`statements_changed`, the
 * organisation's id), which drops that organisation's entry; a lost notification connection
 * drops them all. Who may read an organisation's statement is decided before the cache is asked.
 */
import type { DatabaseListener } from '../db/notifications';
import { latestStatementJson } from '../db/statements';
import type { Queryable } from '../db/transaction';
import { encodeAnswer, type EncodedAnswer } from '../conditionalGet';

/**
 * The answer: the newest statement with its `asOf`, in each encoding; its ETag is strong and
 * never the same for two organisations (their id is in the hash).
 */
type CachedStatement = EncodedAnswer;

const STATEMENTS_CHANNEL = 'statements_changed';

/**
 * What the cached answers may hold in memory together: a statement with a year of trades runs to
 * megabytes, so the budget is in bytes; the least recently read are dropped beyond it.
 */
const MAX_BYTES = 64 * 1024 * 1024;

export class StatementCache {
  /** Each organisation's answer, or its read while in flight (shared by concurrent requests). */
  private readonly entries = new Map<string, CachedStatement | Promise<CachedStatement | null>>();
  /** The body size of each entry read so far (the ones still reading count 0). */
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly db: Queryable,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  /** Listens for new statements on every instance (and forgets all after a reconnection). */
  async listen(notifications: DatabaseListener): Promise<void> {
    await notifications.listen(STATEMENTS_CHANNEL, (organizationId) =>
      this.invalidate(organizationId),
    );
    notifications.onReconnect(() => {
      this.entries.clear();
      this.sizes.clear();
      this.bytes = 0;
    });
  }

  invalidate(organizationId: string): void {
    this.entries.delete(organizationId);
    this.bytes -= this.sizes.get(organizationId) ?? 0;
    this.sizes.delete(organizationId);
  }

  /**
   * The organisation's newest statement, serialised, or null when none is loaded; from memory
   * without a promise once read (most requests).
   */
  current(organizationId: string): CachedStatement | Promise<CachedStatement | null> {
    const cached = this.entries.get(organizationId);
    if (cached) {
      // Most recently read last: the first key is the one to drop when over budget.
      this.entries.delete(organizationId);
      this.entries.set(organizationId, cached);
      return cached;
    }
    // Concurrent requests share one read. An entry dropped meanwhile (a notification) is not
    // put back: the next request reads anew, after the commit the notification followed.
    const reading = latestStatementJson(this.db, organizationId).then((body) =>
      body === null ? null : encodeAnswer(body, organizationId),
    );
    this.entries.set(organizationId, reading);
    const settled = (found: CachedStatement | null) => {
      if (this.entries.get(organizationId) !== reading) return;
      // No statement yet is not kept: the next request asks the database.
      if (!found) return this.invalidate(organizationId);
      this.entries.set(organizationId, found);
      this.sizes.set(organizationId, found.bytes);
      this.bytes += found.bytes;
      for (const oldest of this.entries.keys()) {
        if (this.bytes <= this.maxBytes || oldest === organizationId) break;
        this.invalidate(oldest);
      }
    };
    // A failed read is not kept either.
    reading.then(settled, () => {
      if (this.entries.get(organizationId) === reading) this.invalidate(organizationId);
    });
    return reading;
  }
}
