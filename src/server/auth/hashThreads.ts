/**
 * Password hashes run in threads of their own, not in libuv's shared pool, so that each can run at
 * a CPU priority of its own (Linux keeps a nice value per thread):
 * - a returning browser's sign-in (trusted, a device cookie of that very account) at the
 *   process's priority;
 * - a new browser's giving the password the account last signed in with (signinHints.ts)
 *   {@link KNOWN_PASSWORD_NICE} below it: well ahead of the guesses, yet not taking a core from
 *   a returning browser's hash of the same moment;
 * - every other hash (sign-ins from new browsers, and the guesses an attacker makes within the
 *   per-address allowance; sign-ups, password changes) at {@link UNTRUSTED_NICE} below it.
 *
 * The hash queue (hashQueue.ts) decides how many run and in which order; these threads decide who
 * gets a core while they run. Under a one-address attack the guesses scrypt allows took a core
 * from the returning user's hash as an equal: the user's sign-in took 2.2–2.6 times as long as
 * with no load. At a lower priority they take only what nothing else wants, and the event loop
 * (which answers the attacker's refused requests and everyone else's pages) also comes first.
 *
 * The thread's code is a few lines of plain JavaScript, run with `eval`, so neither tsx nor the
 * server build needs a worker file for it.
 */
import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** How far below the process's priority untrusted hashes run (Linux nice: 0 normal, 19 last). */
export const UNTRUSTED_NICE = 10;

/** How far below it a new browser giving the account's last password is hashed. */
export const KNOWN_PASSWORD_NICE = 5;

/**
 * Whose hash it is: `true` a returning browser's, `'known-password'` a new browser's giving the
 * account's last password, `false` anyone else's (the queue's trusted line takes the first two).
 */
export type HashTrust = boolean | 'known-password';

interface HashRequest {
  password: string;
  salt: Uint8Array;
  keyLength: number;
  options: crypto.ScryptOptions;
}

type HashReply = { key: Uint8Array } | { failure: string };

// CommonJS (an `eval` worker's default). A thread lowers only its own priority: on Linux
// setpriority(PRIO_PROCESS, 0) applies to the calling thread. Elsewhere the call may apply to
// the whole process, so it is made on Linux only.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const crypto = require('node:crypto');
if (workerData.nice > 0 && process.platform === 'linux') {
  try { require('node:os').setPriority(0, workerData.nice); } catch {}
}
parentPort.on('message', ({ password, salt, keyLength, options }) => {
  let reply;
  try {
    reply = { key: new Uint8Array(crypto.scryptSync(password, salt, keyLength, options)) };
  } catch (error) {
    reply = { failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort.postMessage(reply);
});
`;

/**
 * Idle threads of one priority, started on first use and kept (the hash queue bounds how many run
 * at once, so how many exist). One runs one hash at a time; one that fails is ended.
 */
class HashThreadPool {
  private readonly idle: Worker[] = [];
  started = 0;

  constructor(private readonly nice: number) {}

  run(request: HashRequest): Promise<Buffer> {
    const worker = this.idle.pop() ?? this.start();
    // Held while it hashes: a script that hashes and exits must wait for the answer.
    worker.ref();
    return new Promise<Buffer>((resolve, reject) => {
      const settle = (outcome: Buffer | Error, keep: boolean) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (keep) {
          worker.unref();
          this.idle.push(worker);
        } else {
          void worker.terminate();
        }
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const onMessage = (reply: HashReply) => {
        if ('key' in reply) {
          settle(Buffer.from(reply.key.buffer, reply.key.byteOffset, reply.key.byteLength), true);
        } else {
          settle(new Error(`password hash failed: ${reply.failure}`), false);
        }
      };
      const onError = (error: Error) => settle(error, false);
      const onExit = (code: number) =>
        settle(new Error(`password hash thread ended (exit code ${code})`), false);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(request);
    });
  }

  /** Ends the idle threads; each leaves the pool through its `exit` listener, as any would. */
  async endIdle(): Promise<void> {
    await Promise.all([...this.idle].map((worker) => worker.terminate()));
  }

  private start(): Worker {
    this.started++;
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { nice: this.nice } });
    // A thread that ends while idle leaves the pool (a hash posted to it would never be
    // answered); its error, if any, is not the process's: an error event with no listener
    // would end the server. While it hashes, `run`'s own listeners answer the hash.
    worker.on('error', () => {});
    worker.once('exit', () => {
      const index = this.idle.indexOf(worker);
      if (index >= 0) this.idle.splice(index, 1);
    });
    return worker;
  }
}

const trustedThreads = new HashThreadPool(0);
const knownPasswordThreads = new HashThreadPool(KNOWN_PASSWORD_NICE);
const untrustedThreads = new HashThreadPool(UNTRUSTED_NICE);

/** How many threads the returning and the untrusted priorities have started (tests read it). */
export function hashThreadsStarted(): { trusted: number; untrusted: number } {
  return { trusted: trustedThreads.started, untrusted: untrustedThreads.started };
}

/** Ends every idle hash thread (tests: a thread that ends while idle is not used again). */
export async function endIdleHashThreads(): Promise<void> {
  await Promise.all(
    [trustedThreads, knownPasswordThreads, untrustedThreads].map((pool) => pool.endIdle()),
  );
}

/** scrypt in a hash thread: `trusted` at the process's priority, else at a lower one. */
export function scryptInThread(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: crypto.ScryptOptions,
  trusted: HashTrust,
): Promise<Buffer> {
  const pool =
    trusted === 'known-password'
      ? knownPasswordThreads
      : trusted
        ? trustedThreads
        : untrustedThreads;
  // Copied: a Buffer may be a view into a shared slab, which would be cloned whole.
  return pool.run({ password, salt: new Uint8Array(salt), keyLength, options });
}
