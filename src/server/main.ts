/**
 * Starts the portal: reads the environment, opens the database (embedded PostgreSQL in DATA_DIR
 * unless DATABASE_URL is set), applies migrations, seeds demo data in development, listens, and
 * shuts down gracefully on SIGINT/SIGTERM. A start that fails at any step ends with one sentence
 * (startupFailure.ts) and exit code 1, never a stack trace.
 */
import path from 'node:path';
import { buildApp } from './app';
import { warmPdfInspection } from './storage/inspectionThreads';
import { readConfig } from './config';
import { openDatabase } from './db/database';
import { FieldKeyError, loadFieldKeys, type FieldKeyRing } from './fieldEncryption/keyRing';
import { loadAuditChainKeys } from './audit/auditChainKeys';
import { loadCsrfKeys } from './auth/csrfKeys';
import { readableLogStream } from './logging';
import { createOutboxMailer, DEV_OUTBOX_FILE } from './mail/mailer';
import { createSmtpMailer } from './mail/smtpMailer';
import { seedDemoData, DEMO_SIGN_INS } from './seed/demo';
import { seedDisclosures } from './seed/disclosures';
import { startupFailureMessage, type StartupStep } from './startupFailure';

const config = readConfig();
const log = (message: string) => console.log(message);

/** Ends the start with one sentence and a non-zero code (a supervisor such as systemd retries). */
async function failed(
  step: StartupStep,
  error: unknown,
  cleanup: Array<() => Promise<unknown>>,
): Promise<never> {
  console.error(startupFailureMessage(step, error, { host: config.host, port: config.port }));
  if (config.logLevel === 'debug' || config.logLevel === 'trace') console.error(error);
  for (const close of cleanup) await close().catch(() => {});
  process.exit(1);
}

// Without the keys of sensitive answers nothing can be stored or read, without the audit
// chain's nothing can be audited, and without the CSRF keys nothing can be changed: one
// sentence, exit 1.
let fieldKeys: FieldKeyRing;
let auditChainKeys: FieldKeyRing;
let csrfKeys: FieldKeyRing;
try {
  fieldKeys = loadFieldKeys(config);
  auditChainKeys = loadAuditChainKeys(config);
  csrfKeys = loadCsrfKeys(config);
} catch (error) {
  console.error(error instanceof FieldKeyError ? error.message : String(error));
  process.exit(1);
}

const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  log: (message) => {
    // The supervisor's and pool's own lines always show; PostgreSQL's chatter on request.
    if (process.env.LOG_POSTGRES === '1' || /^(embedded PostgreSQL|database )/.test(message)) {
      log(`[postgres] ${message}`);
    }
  },
}).catch((error: unknown) => failed('database', error, []));
// docs/decisions.md, The standalone portal: with SMTP_URL mail goes out by SMTP; otherwise it is
// printed and kept in the outbox. Development logs are readable lines (production keeps JSON for
// log collectors).
const readable = config.production ? undefined : readableLogStream((line) => console.log(line));
const mailer = config.smtpUrl
  ? createSmtpMailer(config.smtpUrl)
  : readable
    ? createOutboxMailer(
        (line) => readable.write(JSON.stringify({ level: 30, time: Date.now(), msg: line })),
        {
          summary: `http://localhost:${config.port}/dev/outbox`,
          file: path.join(config.dataDir, DEV_OUTBOX_FILE),
        },
      )
    : createOutboxMailer();
const closeDatabase = () => database.close();
const app = await buildApp({
  config,
  pool: database.pool,
  mailer,
  fieldKeys,
  auditChainKeys,
  csrfKeys,
  ...(readable ? { logger: { level: config.logLevel, stream: readable } } : {}),
}).catch((error: unknown) => failed('app', error, [closeDatabase]));
const closeApp = () => app.close();

let seeded = false;
try {
  // Several instances may start together on one empty database: both seeds take a lock.
  if (config.seedDemo) seeded = await seedDemoData(database.pool, config, app.forms);
  // Sample disclosure documents: a year of them, once, when none are published yet.
  if (config.seedDemo) await seedDisclosures(database.pool, config);
} catch (error) {
  await failed('seed', error, [closeApp, closeDatabase]);
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log(`${signal}: shutting down`);
  const timer = setTimeout(() => process.exit(1), 10_000);
  try {
    await app.close();
    await database.close();
  } finally {
    clearTimeout(timer);
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  await failed('listen', error, [closeApp, closeDatabase]);
}
warmPdfInspection();
const address = `http://localhost:${config.port}/clearing`;
log(`\n${'='.repeat(64)}\n Clearing member portal: ${address}`);
log(
  ` Database: ${config.databaseUrl ? 'DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`}`,
);
if (!config.production) {
  log(` Outbox (emails sent): http://localhost:${config.port}/dev/outbox`);
  log(` Demo sign-ins${seeded ? ' (just seeded)' : ''}:`);
  for (const demo of DEMO_SIGN_INS)
    log(`   ${demo.label.padEnd(28)} ${demo.email} / ${demo.password}`);
}
log('='.repeat(64));
