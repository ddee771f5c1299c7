import fp from 'fastify-plugin';
import { unstorableTextPath } from '../../shared/rules/storableText';
import { badRequest } from '../errors';

/** The answer to text that could never be stored (a NUL byte, an unpaired surrogate). */
export const UNSTORABLE_MESSAGE =
  'Some text contains a character that is not allowed (such as a NUL byte). Please remove it and try again.';

/**
 * Refuses, before any handler runs, path parameters, query strings and parsed bodies (JSON and
 * form posts alike) that carry text PostgreSQL cannot store. Multipart fields are read inside
 * the handlers, so the multipart reader applies the same rule to them.
 */
export const inputGuardPlugin = fp(async (app) => {
  // A callback hook: every request passes here, and pays no promise for it.
  app.addHook('preValidation', (request, _reply, done) => {
    for (const [where, value] of [
      ['path', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const pointer = unstorableTextPath(value);
      if (pointer !== null) {
        return done(
          badRequest(UNSTORABLE_MESSAGE, { [`${where}${pointer}`]: 'Character not allowed' }),
        );
      }
    }
    done();
  });
});
