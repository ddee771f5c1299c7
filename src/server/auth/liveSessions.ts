/**
 * Live sessions kept in an instance's memory, for the statement GET (issue 29 §3): the portal's
 * busiest signed-in read waited on one database round trip per request for the session alone.
 *
 * A session is answered from memory only while all of these hold; otherwise it is read anew:
 * - the instance is listening for the database's notifications (a lost connection clears all and
 *   turns the cache off until it is back);
 * - it is before the session's absolute end and its idle end, both kept from the read;
 * - its idle timer is not due a refresh (SESSION_TOUCH_MS): the read that refreshes it is a
 *   database read, so no entry outlives a minute, and idle sessions still end on time;
 * - no notification has named it since: triggers (migration 116) notify every instance at the
 *   commit of a session's end, a change to its user (staff, approval, organisation, deletion) or to
 *   their organisation.
 * A read that overlaps any notification is not kept: it may have seen the row before the commit.
 *
 * What it allows: between a sign-out's commit on one instance and the notification's arrival on
 * another (milliseconds), that other instance may still answer this one read-only GET. Every other
 * route reads the session from the database on each request.
 */
import type { DatabaseListener } from '../db/notifications';
import { readLiveSession, SESSION_IDLE_MS, SESSION_TOUCH_MS, touchSession } from '../db/sessions';
import type { Queryable } from '../db/transaction';

/** What a live session may read. */
export interface SessionAccess {
  userId: string;
  isStaff: boolean;
  approved: boolean;
  organizationId: string | null;
  clearingOrgId: string | null;
}

interface Entry {
  access: SessionAccess;
  /** Local clock (performance.now()): the entry is used until then, then read anew. */
  usableUntil: number;
}

const LIVE_SESSIONS_CHANNEL = 'live_sessions_changed';

/** Sessions kept at most; the oldest kept go first beyond it. */
const MAX_ENTRIES = 50_000;

export class LiveSessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Counts notifications (and clears): a read that saw it change is not kept. */
  private changes = 0;
  private listening: () => boolean = () => false;

  constructor(
    private readonly db: Queryable,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  /** Listens on every instance's notifications; without them, nothing is answered from memory. */
  async listen(notifications: DatabaseListener): Promise<void> {
    await notifications.listen(LIVE_SESSIONS_CHANNEL, (payload) => this.changed(payload));
    notifications.onReconnect(() => this.clear());
    this.listening = () => notifications.connected;
  }

  /** A notification's payload: `s<id hash>`, `u<user id>` or `o<organisation id>`. */
  changed(payload: string): void {
    this.changes++;
    const kind = payload[0];
    const id = payload.slice(1);
    if (kind === 's') {
      this.entries.delete(id);
      return;
    }
    if (kind !== 'u' && kind !== 'o') return this.clear();
    for (const [idHash, entry] of this.entries) {
      if ((kind === 'u' ? entry.access.userId : entry.access.organizationId) === id) {
        this.entries.delete(idHash);
      }
    }
  }

  /** Forgets one session now (its end on this instance, before the notification comes back). */
  forget(idHash: string): void {
    this.changes++;
    this.entries.delete(idHash);
  }

  clear(): void {
    this.changes++;
    this.entries.clear();
  }

  /**
   * The live session holding `idHash` with what it may read, or null; refreshes a stale one.
   * From memory without a promise (most requests).
   */
  access(idHash: string): SessionAccess | Promise<SessionAccess | null> {
    const now = performance.now();
    const listening = this.listening();
    const entry = listening ? this.entries.get(idHash) : undefined;
    if (entry && now < entry.usableUntil) return entry.access;
    if (entry) this.entries.delete(idHash);
    return this.read(idHash, now, listening);
  }

  private async read(
    idHash: string,
    now: number,
    listening: boolean,
  ): Promise<SessionAccess | null> {
    const changesBefore = this.changes;
    const row = await readLiveSession(this.db, idHash);
    if (!row) return null;
    let idleMs = row.idleMs;
    if (row.stale) {
      await touchSession(this.db, idHash);
      idleMs = 0;
    }
    const access: SessionAccess = {
      userId: row.userId,
      isStaff: row.isStaff,
      approved: row.approved,
      organizationId: row.organizationId,
      clearingOrgId: row.clearingOrgId,
    };
    if (listening && this.listening() && this.changes === changesBefore) {
      const usableUntil =
        now + Math.min(row.expiresInMs, SESSION_IDLE_MS - idleMs, SESSION_TOUCH_MS - idleMs);
      if (usableUntil > now) this.keep(idHash, { access, usableUntil });
    }
    return access;
  }

  private keep(idHash: string, entry: Entry): void {
    this.entries.delete(idHash);
    this.entries.set(idHash, entry);
    if (this.entries.size <= this.maxEntries) return;
    const oldest = this.entries.keys().next().value;
    if (oldest !== undefined) this.entries.delete(oldest);
  }
}
