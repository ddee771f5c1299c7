/**
 * Issue 25 §3: the forms plugin in Vite's dev server (what `npm run dev` serves the preview
 * from). The index module loads (a directory given to addWatchFile used to become an import Vite
 * could not resolve: 'Failed to resolve import "<root>/schemas" from "virtual:forms"'); a folder
 * added while the server runs is in the index without a restart, the page told to reload; a
 * broken folder's module says the form is not there instead of failing the others.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { formValidatorsPlugin } from '../../../scripts/formValidatorsPlugin';

let root: string;
let server: ViteDevServer;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-plugin-'));
  fs.cpSync('schemas', path.join(root, 'schemas'), { recursive: true });
  server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [formValidatorsPlugin({ root })],
    server: { middlewareMode: true, hmr: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** The index module's form ids, as the dev server serves it now. */
async function formIds(): Promise<string[]> {
  const result = await server.transformRequest('virtual:forms');
  const ids = /export const formIds = (\[[^\]]*\]);/.exec(result!.code)?.[1];
  return JSON.parse(ids!) as string[];
}

it('serves the index, and a folder added while it runs without a restart', async () => {
  expect(await formIds()).toEqual(['affiliated-person', 'business', 'individual', 'person']);
  const reload = vi.spyOn(server.ws, 'send');
  const folder = path.join(root, 'schemas', 'introducing-broker');
  fs.cpSync('tests/fixtures/forms-dir/introducing-broker', folder, { recursive: true });
  await vi.waitFor(() => expect(reload).toHaveBeenCalledWith({ type: 'full-reload' }), {
    timeout: 20_000,
    interval: 100,
  });
  expect(await formIds()).toContain('introducing-broker');
  const index = await server.transformRequest('virtual:forms');
  expect(index!.code).toContain('"label":"Introducing broker"');
}, 60_000);

it('a folder whose form does not compile is not available; the others still load', async () => {
  const folder = path.join(root, 'schemas', 'broken-form');
  fs.mkdirSync(folder);
  fs.writeFileSync(
    path.join(folder, 'broken-form.schema.json'),
    JSON.stringify({ type: 'object', properties: { a: { $ref: '#/$defs/nowhere' } } }),
  );
  fs.writeFileSync(path.join(folder, 'broken-form.ui.json'), '{}');
  fs.writeFileSync(path.join(folder, 'broken-form.example.json'), '{}');
  const broken = await server.transformRequest('virtual:forms/broken-form');
  expect(broken!.code).toContain('export default undefined');
  // Loaded, not transformed: the temporary root has no node_modules for its imports.
  const good = await server.pluginContainer.load('\0virtual:forms/individual');
  const code = typeof good === 'string' ? good : (good?.code ?? '');
  expect(code).toContain('export default');
  expect(code).not.toContain('export default undefined');
}, 60_000);
