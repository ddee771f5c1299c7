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
    const pointer =
      where('path', request.params) ?? where('query', request.query) ?? where('body', request.body);
    if (pointer === null) return done();
    done(badRequest(UNSTORABLE_MESSAGE, { [pointer]: 'Character not allowed' }));
  });
});

/** `path/id`, `query/q` or `body/…`: where in the request the unstorable text is, or null. */
function where(part: 'path' | 'query' | 'body', value: unknown): string | null {
  const pointer = unstorableTextPath(value);
  return pointer === null ? null : `${part}${pointer}`;
}
