/**
 * Issue 25 §3: the form preview (`/clearing/dev/forms`) as `npm run dev` serves it, in Chromium.
 * This file starts its own `scripts/dev.ts` (the API server under `tsx watch` and Vite's dev
 * server, on free ports apart from the workers' portals), with FORMS_DIR naming a temporary
 * folder holding a copy of the test registration kind, so nothing is written into schemas/. A
 * folder added while it runs is listed and drawn, and a prompt edited in it shows its new wording,
 * each after the page reloads by itself: the servers are never restarted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { freePort } from '../../bench/lib/util';

const FIXTURE = 'tests/fixtures/forms-dir/introducing-broker';
/** The folder added while the preview runs: the test kind again, under another id. */
const ADDED = 'commodity-broker';

type FormFile = { [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- a form's files as JSON
const readFixture = (kind: string) =>
  JSON.parse(fs.readFileSync(`${FIXTURE}/introducing-broker.${kind}.json`, 'utf8')) as FormFile;
const fixtureSchema = readFixture('schema');
const individualTitle = (
  JSON.parse(fs.readFileSync('schemas/individual/individual.schema.json', 'utf8')) as FormFile
).title as string;

/** The added form's schema: its own title and choice, so no page shows two of the same. */
function addedSchema(emailPrompt: string): FormFile {
  const schema = structuredClone(fixtureSchema);
  schema.title = 'Commodity broker registration';
  schema['x-registration'].choice = {
    ...schema['x-registration'].choice,
    label: 'Commodity broker',
    order: 4,
  };
  schema.properties.email.title = emailPrompt;
  return schema;
}
const writeJson = (file: string, value: unknown) =>
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

interface DevServer {
  /** The Vite dev server's origin, as a developer opens it. */
  url: string;
  child: ChildProcess;
  output: () => string;
}

/** `npm run dev`'s script, on free ports. */
async function spawnDev(formsDir: string, dataDir: string): Promise<DevServer> {
  const [apiPort, vitePort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(apiPort),
    VITE_PORT: String(vitePort),
    DATA_DIR: dataDir,
    FORMS_DIR: formsDir,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    SEED_DEMO: '0',
  };
  delete env.DATABASE_URL;
  delete env.WEB_DIR;
  // The start of its output (why the API server did not start) and the latest lines.
  let head = '';
  let tail = '';
  const output = () => (tail.length > 0 ? `${head}\n…\n${tail}` : head);
  const tsx = fileURLToPath(import.meta.resolve('tsx/cli'));
  // Its own process group, so that whatever it leaves behind can be ended with it.
  const child = spawn(process.execPath, [tsx, 'scripts/dev.ts'], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    if (head.length < 4000) head += chunk.toString();
    else tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { url: `http://localhost:${vitePort}`, child, output };
}

/** Resolves once the app and the API both answer through the dev server. */
async function answering(dev: DevServer): Promise<void> {
  const { child, output } = dev;
  const answers = async (address: string) => {
    try {
      return (await fetch(address)).ok;
    } catch {
      return false;
    }
  };
  // Embedded PostgreSQL's first start and Vite's dependency scan, on a busy machine.
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited:\n${output()}`);
    if (
      (await answers(`${dev.url}/clearing/dev/forms`)) &&
      (await answers(`${dev.url}/exchange/api/web/config`))
    ) {
      return;
    }
    if (Date.now() > deadline) throw new Error(`npm run dev did not answer in time:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Ends the dev server as Ctrl-C does (it stops the API server), then anything left of it. */
async function stopDev(dev: DevServer): Promise<void> {
  const { child } = dev;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  }
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // The group has ended already.
  }
}

let tempDir: string;
let formsDir: string;
let dev: DevServer | undefined;

/**
 * Vite's dev server transforms each module on first request: on a loaded 2-core machine (CI with
 * another portal beside it) a first draw took longer than the default 10 s. A wait, not a retry.
 */
const devExpect = expect.configure({ timeout: 45_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-preview-dev-'));
  // Run as root, embedded PostgreSQL runs as "postgres", which must enter the folder to its data.
  fs.chmodSync(tempDir, 0o711);
  formsDir = path.join(tempDir, 'forms');
  fs.mkdirSync(formsDir);
  fs.cpSync(FIXTURE, path.join(formsDir, 'introducing-broker'), { recursive: true });
  dev = await spawnDev(formsDir, path.join(tempDir, 'data'));
  await answering(dev);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  if (dev) await stopDev(dev);
  fs.rmSync(tempDir, { recursive: true, force: true });
});

test('the preview in dev mode: a folder added while it runs is listed and drawn, and an edited prompt shows', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${dev!.url}/clearing/dev/forms`);

  // The forms there already: schemas/ and the FORMS_DIR folder's.
  const list = page.getByRole('main');
  await devExpect(list.getByRole('link', { name: individualTitle })).toBeVisible();
  await devExpect(list.getByRole('link', { name: fixtureSchema.title })).toBeVisible();
  const original = readFixture('schema').properties.email.title as string;
  const schema = addedSchema(original);
  await devExpect(list.getByRole('link', { name: schema.title })).toHaveCount(0);

  // The FORMS_DIR form draws in the browser (its module used to fail Vite's import analysis).
  await list.getByRole('link', { name: fixtureSchema.title }).click();
  await devExpect(page.getByRole('heading', { level: 1 })).toHaveText(fixtureSchema.title);
  await page.getByRole('link', { name: 'all forms' }).click();

  // A folder copied in while it runs: three files named after it, as a compliance officer makes.
  const folder = path.join(formsDir, ADDED);
  fs.mkdirSync(folder);
  writeJson(path.join(folder, `${ADDED}.schema.json`), schema);
  for (const kind of ['ui', 'example']) {
    fs.copyFileSync(
      path.join(FIXTURE, `introducing-broker.${kind}.json`),
      path.join(folder, `${ADDED}.${kind}.json`),
    );
  }
  // Listed once the page has reloaded by itself (the watcher's event, then the page's reload).
  await devExpect(list.getByRole('link', { name: schema.title })).toBeVisible();
  await list.getByRole('link', { name: schema.title }).click();
  await devExpect(page).toHaveURL(new RegExp(`/clearing/dev/forms/${ADDED}$`));
  await devExpect(page.getByRole('heading', { level: 1 })).toHaveText(schema.title);
  const example = readFixture('example');
  await devExpect(page.getByRole('textbox', { name: original })).toHaveValue(example.email);
  await devExpect(page.getByText('The answers are valid.')).toBeVisible();

  // A prompt reworded in the added folder: the page reloads with the new wording.
  const reworded = 'Work email address';
  writeJson(path.join(folder, `${ADDED}.schema.json`), addedSchema(reworded));
  await devExpect(page.getByRole('textbox', { name: reworded })).toHaveValue(example.email);
  await devExpect(page.getByRole('textbox', { name: original, exact: true })).toHaveCount(0);

  expect(dev!.child.exitCode, 'the dev server kept running').toBeNull();
  expect(errors).toEqual([]);
});
