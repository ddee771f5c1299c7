/**
 * Cursor lists (issue 40 §6): a list call takes `cursor` and `limit` and answers
 * `{ data, nextCursor }`; `nextCursor` is null on the last page. The cursor is opaque to the
 * client: pass back exactly what the previous page answered (src/server/pagination.ts makes it).
 */

/** The largest page any list answers. */
const MAX_PAGE_LIMIT = 500;

/** The `cursor` and `limit` query parameters of a list call (merge into its querystring). */
export const cursorQueryProperties = (defaultLimit: number) =>
  ({
    cursor: {
      type: 'string',
      minLength: 1,
      maxLength: 512,
      description:
        'The previous page’s `nextCursor`, as it was answered; omit for the first page. A cursor ' +
        'that was altered, or that belongs to another list, is refused with 400.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_PAGE_LIMIT,
      default: defaultLimit,
      description: `How many items a page holds at most (1–${MAX_PAGE_LIMIT}).`,
    },
  }) as const;

/** The answer of a list call: one page of `items` and the cursor of the next. */
export const pageSchema = <Item extends object>(items: Item, description: string) =>
  ({
    type: 'object',
    description,
    properties: {
      data: { type: 'array', items },
      nextCursor: {
        type: ['string', 'null'],
        description: 'Pass as `cursor` for the next page; null when this page is the last.',
      },
    },
    required: ['data', 'nextCursor'],
    additionalProperties: false,
  }) as const;

/** One page of a list. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}
