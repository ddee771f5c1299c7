/**
 * `tsx tests/fakes/leiRegistryServer.ts <port>`: the fake LEI registry as a process of its own,
 * for Playwright to start beside the portal (whose `LEI_API_URL` points at it).
 */
import { FakeLeiRegistry } from './leiRegistry';

const port = Number(process.argv[2] ?? 8182);
const base = await new FakeLeiRegistry().start(port);
console.log(`fake LEI registry at ${base}`);
