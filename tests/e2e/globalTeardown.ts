import { stopLeftoverPortals } from './portalServer';

/** Ends any worker's portal left running, and says so: a worker normally stops its own. */
export default async function globalTeardown(): Promise<void> {
  const ended = await stopLeftoverPortals();
  if (ended.length > 0) console.warn(`e2e: ended what workers left running: ${ended.join(', ')}`);
}
