import type { FromSchema } from 'json-schema-to-ts';

/**
 * GET /exchange/api/web/lei-records/{lei}: what the LEI registry (GLEIF) says of a legal entity,
 * reduced to what the business wizard fills in (spec business §4, §7.1). Address of the entity's
 * headquarters (its legal address when the registry gives no headquarters).
 */
export const leiRecordSchema = {
  type: 'object',
  properties: {
    lei: { type: 'string', description: 'The LEI, upper case.' },
    legalName: { type: 'string' },
    addressLines: { type: 'array', items: { type: 'string' } },
    city: { type: 'string' },
    region: {
      type: ['string', 'null'],
      description: "The region's code without the country (`CA` for GLEIF's `US-CA`).",
    },
    postalCode: { type: ['string', 'null'] },
    country: { type: 'string', description: 'Two-letter country code.' },
    isNonUs: { type: 'boolean', description: 'The headquarters are outside the United States.' },
  },
  required: [
    'lei',
    'legalName',
    'addressLines',
    'city',
    'region',
    'postalCode',
    'country',
    'isNonUs',
  ],
  additionalProperties: false,
} as const;
export type LeiRecord = FromSchema<typeof leiRecordSchema>;

export const leiRecordPath = (lei: string) =>
  `/exchange/api/web/lei-records/${encodeURIComponent(lei)}`;
