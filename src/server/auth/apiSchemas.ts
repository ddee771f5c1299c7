/**
 * Helpers of the auth and account routes. The schemas of their bodies and answers, and the types
 * both sides use, are in src/shared/api/auth.ts and account.ts.
 */
import { UUID_PATTERN } from '../../shared/api/http';

const UUID = new RegExp(UUID_PATTERN);

export const isUuid = (value: string | undefined): value is string =>
  value !== undefined && UUID.test(value);
