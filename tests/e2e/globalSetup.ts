import { buildPortal } from './portalServer';

/** Builds the portal once for the run; each worker starts its own copy (support.ts). */
export default async function globalSetup(): Promise<void> {
  await buildPortal();
}
