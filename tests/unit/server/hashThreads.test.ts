import crypto from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  endIdleHashThreads,
  hashThreadsStarted,
  KNOWN_PASSWORD_NICE,
  scryptInThread,
  UNTRUSTED_NICE,
} from '../../../src/server/auth/hashThreads';

const OPTIONS = { N: 2 ** 10, r: 8, p: 1 };

/** The nice value of each thread of this process, by thread id (Linux: /proc). */
function threadNiceValues(): Map<string, number> {
  const values = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    // Fields after the command name (which may hold spaces) start with field 3, the state;
    // field 19 is the nice value.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    values.set(tid, Number(fields[19 - 3]));
  }
  return values;
}

function ownNice(): number {
  const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19 - 3]);
}

describe('password hash threads', () => {
  it('derive the same key as scrypt itself, trusted or not', async () => {
    const salt = crypto.randomBytes(16);
    const expected = crypto.scryptSync('correct horse', salt, 32, OPTIONS);
    expect(await scryptInThread('correct horse', salt, 32, OPTIONS, true)).toEqual(expected);
    expect(await scryptInThread('correct horse', salt, 32, OPTIONS, false)).toEqual(expected);
    // A salt that is a view into a larger buffer is read as the view.
    const slab = Buffer.alloc(64, 7);
    salt.copy(slab, 20);
    expect(
      await scryptInThread('correct horse', slab.subarray(20, 36), 32, OPTIONS, false),
    ).toEqual(expected);
  });

  it('run untrusted hashes at a lower priority than the process, trusted ones at its own', async () => {
    const salt = crypto.randomBytes(16);
    await Promise.all([
      scryptInThread('a', salt, 32, OPTIONS, false),
      scryptInThread('b', salt, 32, OPTIONS, false),
      scryptInThread('c', salt, 32, OPTIONS, true),
    ]);
    const mine = ownNice();
    const after = threadNiceValues();
    const lowered = [...after].filter(([, nice]) => nice === mine + UNTRUSTED_NICE);
    // Two untrusted hashes at once: two lowered threads, kept for the next hashes.
    expect(hashThreadsStarted().untrusted).toBeGreaterThanOrEqual(2);
    expect(lowered.length).toBe(hashThreadsStarted().untrusted);
    // Nothing else of the process was lowered: this thread and every other kept their priority.
    expect(ownNice()).toBe(mine);
    expect(after.size - lowered.length).toBeGreaterThan(0);
    for (const [, nice] of after) expect([mine, mine + UNTRUSTED_NICE]).toContain(nice);
  });

  it("run a new browser giving the account's last password between the two", async () => {
    const salt = crypto.randomBytes(16);
    const expected = crypto.scryptSync('d', salt, 32, OPTIONS);
    const mine = ownNice();
    const before = new Set(threadNiceValues().keys());
    expect(await scryptInThread('d', salt, 32, OPTIONS, 'known-password')).toEqual(expected);
    const started = [...threadNiceValues()].filter(([tid]) => !before.has(tid));
    expect(KNOWN_PASSWORD_NICE).toBeGreaterThan(0);
    expect(KNOWN_PASSWORD_NICE).toBeLessThan(UNTRUSTED_NICE);
    expect(started.map(([, nice]) => nice)).toContain(mine + KNOWN_PASSWORD_NICE);
  });

  it('reuse an idle thread instead of starting another', async () => {
    const salt = crypto.randomBytes(16);
    await scryptInThread('x', salt, 32, OPTIONS, true);
    const started = hashThreadsStarted().trusted;
    for (let i = 0; i < 3; i++) await scryptInThread('x', salt, 32, OPTIONS, true);
    expect(hashThreadsStarted().trusted).toBe(started);
  });

  it('leave the pool when they end while idle: the next hash gets a new thread', async () => {
    const salt = crypto.randomBytes(16);
    await scryptInThread('y', salt, 32, OPTIONS, true);
    const started = hashThreadsStarted().trusted;
    await endIdleHashThreads();
    const expected = crypto.scryptSync('y', salt, 32, OPTIONS);
    expect(await scryptInThread('y', salt, 32, OPTIONS, true)).toEqual(expected);
    expect(hashThreadsStarted().trusted).toBe(started + 1);
  });

  it('refuse a hash scrypt refuses, and hash the next one in a new thread', async () => {
    const salt = crypto.randomBytes(16);
    await expect(
      scryptInThread('x', salt, 32, { ...OPTIONS, maxmem: 1024 }, false),
    ).rejects.toThrow(/password hash failed/);
    const expected = crypto.scryptSync('x', salt, 32, OPTIONS);
    expect(await scryptInThread('x', salt, 32, OPTIONS, false)).toEqual(expected);
  });
});
