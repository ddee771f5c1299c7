import type { FastifyInstance } from 'fastify';

/** Where the document is committed (written by `npm run openapi`, checked by a test). */
export const OPENAPI_FILE = 'docs/openapi.json';

/** The OpenAPI document as committed: the served one, two-space indented. */
export function openapiDocumentText(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}
