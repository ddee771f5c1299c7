import { totpCode } from '../src/server/auth/totp';

const STEP_MS = 30_000;

/**
 * The code of the step before now, as tests confirm an authenticator with it (the current step
 * stays unused for the sign-in that follows). The server accepts one step either side of its own,
 * so that code is good only until the current step ends: taken closer than `marginMs` to that
 * end, it could arrive a step late and be refused (CI saw it once). Then it waits for the next
 * step first.
 */
export async function previousStepCode(secret: string, marginMs = 5_000): Promise<string> {
  const intoStep = Date.now() % STEP_MS;
  if (intoStep > STEP_MS - marginMs) {
    await new Promise((resolve) => setTimeout(resolve, STEP_MS - intoStep + 100));
  }
  return totpCode(secret, Date.now() - STEP_MS);
}
