/**
 * `npm run openapi`: writes the API's OpenAPI 3.1 document to docs/openapi.json, generated from
 * the routes' schemas exactly as the server serves it at /exchange/api/openapi.json. The app is
 * built as production builds it (no development routes, no reference page) on a database it
 * never reaches: describing the routes needs none. A test fails when the committed copy is stale.
 * The typed client's types (tests/partner-client/openapi.d.ts) are written from it too.
 */
import fs from 'node:fs';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { readConfig } from '../src/server/config';
import { newFieldKey, parseFieldKeys } from '../src/server/fieldEncryption/keyRing';
import { createOutboxMailer } from '../src/server/mail/mailer';
import { OPENAPI_FILE, openapiDocumentText } from '../src/server/openapiDocument';
import {
  generatedTypes,
  PARTNER_CLIENT_TYPES_FILE,
  partnerClientTypesFile,
} from './partnerClientTypes';

// Port 1 on loopback: nothing listens, so the listener's first connect fails at once and retries
// in the background until the app closes.
const pool = new pg.Pool({ connectionString: 'postgres://openapi@127.0.0.1:1/none' });
pool.on('error', () => {});
const app = await buildApp({
  config: { ...readConfig({ NODE_ENV: 'production' }), webDir: '/nonexistent' },
  pool,
  mailer: createOutboxMailer(() => {}),
  fieldKeys: parseFieldKeys(newFieldKey('openapi')),
  auditChainKeys: parseFieldKeys(newFieldKey('openapi-audit')),
  csrfKeys: parseFieldKeys(newFieldKey('openapi-csrf')),
  logger: false,
});
await app.ready();
fs.writeFileSync(OPENAPI_FILE, openapiDocumentText(app));
await app.close();
await pool.end();
console.log(`${OPENAPI_FILE} written (${Object.keys(app.swagger().paths ?? {}).length} paths)`);
// The typed client's types follow the document (tests/server/typed-client.test.ts checks both).
fs.writeFileSync(PARTNER_CLIENT_TYPES_FILE, await partnerClientTypesFile(await generatedTypes()));
console.log(`${PARTNER_CLIENT_TYPES_FILE} written`);
