/**
 * The firm's names and contacts, in one place (DECISIONS: never repeated in code or schemas).
 * A firm running the portal changes these values and nothing else.
 */
export const firm = {
  /** The provider's brand, `{product}` in the specification. */
  product: 'Northstar',
  displayName: 'Northstar Clearing',
  supportEmail: 'support@northstar-clearing.example',
  supportPhone: '+1 312 555 0142',
} as const;
