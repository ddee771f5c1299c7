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
import { strongEtag } from '../conditionalGet';

interface CachedStatement {
  /** The answer's body: the newest statement with its `asOf`. */
  body: string;
  /** Strong, and never the same for two organisations (their id is in the hash). */
  etag: string;
}

const STATEMENTS_CHANNEL = 'statements_changed';

/** Enough for every organisation of a clearing house; the oldest read is dropped beyond it. */
const MAX_ORGANISATIONS = 5000;

export class StatementCache {
  private readonly entries = new Map<string, Promise<CachedStatement | null>>();

  constructor(private readonly db: Queryable) {}

  /** Listens for new statements on every instance (and forgets all after a reconnection). */
  async listen(notifications: DatabaseListener): Promise<void> {
    await notifications.listen(STATEMENTS_CHANNEL, (organizationId) =>
      this.invalidate(organizationId),
    );
    notifications.onReconnect(() => this.entries.clear());
  }

  invalidate(organizationId: string): void {
    this.entries.delete(organizationId);
  }

  /** The organisation's newest statement, serialised, or null when none is loaded. */
  async current(organizationId: string): Promise<CachedStatement | null> {
    const cached = this.entries.get(organizationId);
    if (cached) {
      // Most recently read last: the first key is the one to drop when full.
      this.entries.delete(organizationId);
      this.entries.set(organizationId, cached);
      return cached;
    }
    // Concurrent requests share one read. An entry dropped meanwhile (a notification) is not
    // put back: the next request reads anew, after the commit the notification followed.
    const reading = latestStatementJson(this.db, organizationId).then((body) =>
      body === null ? null : { body, etag: strongEtag(body, organizationId) },
    );
    this.entries.set(organizationId, reading);
    if (this.entries.size > MAX_ORGANISATIONS) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    // A failed read, or no statement yet, is not kept: the next request asks the database.
    const forget = () => {
      if (this.entries.get(organizationId) === reading) this.entries.delete(organizationId);
    };
    reading.then((found) => found ?? forget(), forget);
    return reading;
  }
}
