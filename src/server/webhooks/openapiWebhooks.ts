/**
 * The OpenAPI 3.1 `webhooks` section (issue 40 §5): for each event, the POST the portal makes to
 * a partner's endpoint, its signed headers and its body (src/shared/api/webhooks.ts), and what
 * the endpoint's answer means. A generated client types its receiver from it.
 */
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SIGNATURE_HEADER,
  webhookEventSchemas,
  type WebhookEventType,
} from '../../shared/api/webhooks';

const SIGNATURE_DESCRIPTION =
  '`t=<unix seconds>,v1=<hex HMAC-SHA256>`: the HMAC of `<t>.<body>` (the body exactly as ' +
  'received) keyed with the endpoint’s secret (`whsec_…`, as its UTF-8 bytes), as Stripe signs. ' +
  'Compute it, compare in constant time, and refuse a `t` more than five minutes from now ' +
  '(docs/api.md has the check in a few lines).';

/** `registration.changes_requested` → `registrationChangesRequestedEvent`. */
const operationIdOf = (type: WebhookEventType) =>
  `${type.replace(/[._](\w)/g, (_match, letter: string) => letter.toUpperCase())}Event`;

/** The `webhooks` object of the document. */
export function openapiWebhooks(): Record<string, object> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const schema = webhookEventSchemas[type];
      return [
        type,
        {
          post: {
            operationId: operationIdOf(type),
            tags: ['webhooks'],
            // The portal calls the partner: no scheme of this API applies; the signature headers
            // below authenticate the call (Redocly's security-defined wants it said).
            security: [],
            summary: schema.description,
            description:
              `Posted to each enabled endpoint subscribed to \`${type}\`. The body carries ids, ` +
              'statuses and times only, never personal data: read what changed with your ' +
              'credentials. Retried with exponential backoff for 72 hours until a 2xx; the ' +
              'events of one registration arrive in order. A resend posts the same `id`.',
            parameters: [
              {
                in: 'header',
                name: WEBHOOK_SIGNATURE_HEADER,
                required: true,
                description: SIGNATURE_DESCRIPTION,
                schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
                example:
                  't=1795000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
              },
              {
                in: 'header',
                name: 'Northstar-Event-Id',
                required: true,
                description: 'The event’s `id` (the same on a retry or a resend).',
                schema: { type: 'string', format: 'uuid' },
              },
              {
                in: 'header',
                name: 'Northstar-Delivery-Id',
                required: true,
                description: 'This delivery (a resend is a new delivery).',
                schema: { type: 'string', format: 'uuid' },
              },
            ],
            requestBody: {
              required: true,
              content: { 'application/json': { schema } },
            },
            responses: {
              '200': { description: 'Received (any 2xx marks the delivery delivered).' },
              default: {
                description:
                  'Anything but a 2xx, a redirect (never followed) or no answer within 10 s ' +
                  'is a failed attempt: retried later, listed with the status and the first ' +
                  '500 characters of the answer.',
              },
            },
          },
        },
      ];
    }),
  );
}
