import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts but does not wait for. Sign-up and reset requests answer before they
 * look the email up, so both paths of each do the same work in the request and take the same
 * time whether or not the email is known (no account disclosure through timing); the lookup and
 * the mail follow here, after the answer has gone out.
 */
export interface BackgroundJobs {
  /** Runs `job` once the current answer has been sent; a failure is logged, never thrown. */
  run(name: string, job: () => Promise<void>): void;
  /** Resolves when every job started so far has finished (shutdown, tests). */
  idle(): Promise<void>;
  /** Holds new jobs until `resume()` (tests observe what a request does on its own). */
  pause(): void;
  resume(): void;
}

export function createBackgroundJobs(log: FastifyBaseLogger): BackgroundJobs {
  const running = new Set<Promise<void>>();
  let gate: Promise<void> = Promise.resolve();
  let open: (() => void) | null = null;
  return {
    run(name, job) {
      const held = gate;
      const done = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => held)
        .then(job)
        .catch((error: unknown) => log.error({ err: error, job: name }, 'background job failed'))
        .finally(() => running.delete(done));
      running.add(done);
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    pause() {
      if (open) return;
      gate = new Promise((resolve) => (open = resolve));
    },
    resume() {
      open?.();
      open = null;
      gate = Promise.resolve();
    },
  };
}
