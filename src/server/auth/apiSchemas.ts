/**
 * Helpers of the auth and account routes. The schemas of their bodies and answers, and the types
 * both sides use, are in src/shared/api/auth.ts and account.ts.
 */
// Until routes/auth.ts and routes/statement.ts (being changed elsewhere) import it from shared.
export { isUuid } from '../../shared/api/http';
