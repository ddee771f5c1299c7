import type { FastifyInstance } from 'fastify';
import {
  encodeAnswer,
  matchesIfNoneMatch,
  sendEncodedAnswer,
  whenAvailable,
  type EncodedAnswer,
} from '../conditionalGet';
import { notFound } from '../errors';
import { listDisclosures } from '../disclosures/listing';
import { findDisclosure, findLatestDisclosure } from '../db/disclosures';
import { readDisclosureFile } from '../disclosures/storage';
import {
  DISCLOSURES_API_PATH,
  disclosuresResponseSchema,
  type DisclosuresResponse,
  LATEST_NAME,
  isDisclosureCategory,
  isDisclosurePeriod,
} from '../../shared/api/disclosures';

/**
 * The response schema: Fastify serializes exactly these fields (docs/decisions.md, A schema per
 * route).
 */
const listingSchema = {
  304: { type: 'null', description: 'not modified (If-None-Match matched the ETag)' },
  200: disclosuresResponseSchema,
} as const;

/**
 * The public regulatory disclosures (business §6: no sign-in): the listing the pages read, and
 * the documents at /clearing/disclosures/{category}/{name}.pdf, `latest.pdf` being the newest
 * period of a category. More specific than the web app's /clearing/* fallback, so it wins.
 */
export async function registerDisclosureRoutes(app: FastifyInstance): Promise<void> {
  const listing = new ListingCache(app);
  await app.notifications.listen('disclosures_changed', () => listing.invalidate());
  // Notifications missed while the database was away: rebuild on the next request.
  app.notifications.onReconnect(() => listing.invalidate());

  app.get(
    DISCLOSURES_API_PATH,
    {
      schema: { response: listingSchema },
      config: { sharedCache: true },
      // Sent compressed as it is kept (sendEncodedAnswer): the compress plugin has nothing to do.
      compress: false,
      decompress: false,
    },
    (request, reply) => {
      // Serialised by the route's response schema: nothing outside it reaches the body.
      const serialize = reply.getSerializationFunction('200')!;
      // From memory in the same tick while the listing holds (most requests).
      return whenAvailable(listing.current(serialize), (answer) => {
        // Public and the same for everyone; short caching spares the server a burst of readers.
        reply.header('cache-control', 'public, max-age=60');
        return sendEncodedAnswer(request, reply, answer);
      });
    },
  );

  app.get<{ Params: { category: string; file: string } }>(
    '/clearing/disclosures/:category/:file',
    { config: { sharedCache: true } },
    async (request, reply) => {
      const { category, file } = request.params;
      const name = file.endsWith('.pdf') ? file.slice(0, -'.pdf'.length) : null;
      if (!isDisclosureCategory(category) || name === null) throw notFound();
      const latest = name === LATEST_NAME;
      if (!latest && !isDisclosurePeriod(category, name)) throw notFound();
      const document = latest
        ? await findLatestDisclosure(app.db, category)
        : await findDisclosure(app.db, category, name);
      if (!document) throw notFound();

      const etag = `"${document.sha256}"`;
      reply
        .header('etag', etag)
        // latest.pdf moves on each publication; a period's document changes only on correction.
        .header('cache-control', latest ? 'no-cache' : 'public, max-age=300')
        .header('x-content-type-options', 'nosniff');
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const bytes = await readDisclosureFile(app.db, app.config.dataDir, document.storageName);
      if (!bytes) throw notFound();
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${category}-${document.period}.pdf"`)
        .send(bytes);
    },
  );
  // Any other path under /clearing/disclosures is a missing document, never the web app.
  app.all('/clearing/disclosures/*', async () => {
    throw notFound();
  });
}

/**
 * The listing, built once and served from memory until a document is published (a trigger
 * notifies every instance) or the UTC day turns (it is a rolling window). The body is serialized
 * once, by the route's response schema, and compressed once (encodeAnswer); its hash is the ETag.
 */
class ListingCache {
  /** The listing built for `version`, served until the UTC day turns. */
  private ready: { version: number; until: number; answer: EncodedAnswer } | undefined;
  /** The build in flight, shared by concurrent requests. */
  private building: { version: number; answer: Promise<EncodedAnswer> } | undefined;
  private version = 0;

  constructor(private readonly app: FastifyInstance) {}

  invalidate(): void {
    this.version++;
    this.ready = undefined;
    this.building = undefined;
  }

  /** The listing; from memory without a promise while it holds (most requests). */
  current(
    serialize: (listing: DisclosuresResponse) => string,
  ): EncodedAnswer | Promise<EncodedAnswer> {
    const ready = this.ready;
    if (ready && ready.version === this.version && Date.now() < ready.until) return ready.answer;
    if (this.building?.version === this.version) return this.building.answer;
    const version = this.version;
    const until = nextUtcMidnight();
    const answer = listDisclosures(this.app.db).then((listing) => encodeAnswer(serialize(listing)));
    const building = { version, answer };
    this.building = building;
    answer.then(
      (built) => {
        if (this.building === building) this.building = undefined;
        // A publication meanwhile (a notification) leaves it unkept: the next request rebuilds.
        if (version === this.version) this.ready = { version, until, answer: built };
      },
      () => {
        // A failed build is not kept.
        if (this.building === building) this.building = undefined;
      },
    );
    return answer;
  }
}

/** When the listing's rolling window moves: the next midnight UTC. */
function nextUtcMidnight(now = new Date()): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
}
