/**
 * The firm's names, contacts and the addresses of its other sites, in one place (docs/decisions.md,
 * Names and values: never repeated in code or schemas). A firm running the portal changes these
 * values and nothing else.
 */

/** A link to one of the firm's other sites: a path on this host, or a full URL elsewhere. */
export interface SiteLink {
  label: string;
  href: string;
}

/**
 * The pages of the firm's other sites that the header and footer link to. The standalone portal
 * answers each local path (one starting with `/`) with a short page marked as a sample; a firm
 * points them at its real pages (full URLs, or paths its reverse proxy sends elsewhere).
 */
const siteLinks = {
  products: { label: 'Products', href: '/exchange/products/' },
  about: { label: 'About', href: '/about' },
  docs: { label: 'Docs', href: '/exchange/docs/' },
  help: { label: 'Help', href: '/help' },
  news: { label: 'News', href: '/news' },
  jobs: { label: 'Jobs', href: '/jobs' },
  perpetualBitcoinCentiFutures: {
    label: 'Perpetual Bitcoin Centi Futures',
    href: '/exchange/products/perpetual-bitcoin-centi-futures/',
  },
  bitcoinFutures: { label: 'Bitcoin Futures', href: '/exchange/products/bitcoin-futures/' },
  bitcoinOptions: { label: 'Bitcoin Options', href: '/exchange/products/bitcoin-options/' },
  deciBitcoinFutures: {
    label: 'Deci Bitcoin Futures',
    href: '/exchange/products/deci-bitcoin-futures/',
  },
  hashratePetahashFutures: {
    label: 'Hashrate Petahash Futures',
    href: '/exchange/products/hashrate-petahash-futures/',
  },
  exchange: { label: 'Exchange', href: '/exchange/' },
  exchangeDocs: { label: 'Exchange Docs', href: '/exchange/docs/' },
  exchangeRegulation: { label: 'Exchange Regulation', href: '/exchange/regulation/' },
  privacyPolicy: { label: 'Privacy Policy', href: '/privacy' },
  termsOfUse: { label: 'Terms of Use', href: '/terms' },
} as const satisfies Record<string, SiteLink>;

export const firm = {
  /** The provider's brand, `{product}` in the specification. */
  product: 'Northstar',
  displayName: 'Northstar Clearing',
  /**
   * What this service is called. With the names above, its words are the ones a new password
   * must not be made of (rules/password.ts, ASVS 6.2.11).
   */
  serviceName: 'Clearing member portal',
  supportEmail: 'support@northstar-clearing.example',
  supportPhone: '+1 312 555 0142',
  siteLinks,
} as const;
