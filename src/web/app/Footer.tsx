import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { firm } from '../../shared/config/firm';
import { NAVY } from './theme';

interface FooterLink {
  label: string;
  href: string;
}

/** Every static link of business §2.6, grouped; all are plain anchors (full page loads). */
export const FOOTER_GROUPS: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Company',
    links: [
      { label: 'Home', href: '/' },
      { label: 'About', href: '/about' },
      { label: 'Help', href: '/help' },
      { label: 'News', href: '/news' },
      { label: 'Jobs', href: '/jobs' },
    ],
  },
  {
    title: 'Products',
    links: [
      {
        label: 'Perpetual Bitcoin Centi Futures',
        href: '/exchange/products/perpetual-bitcoin-centi-futures/',
      },
      { label: 'Bitcoin Futures', href: '/exchange/products/bitcoin-futures/' },
      { label: 'Bitcoin Options', href: '/exchange/products/bitcoin-options/' },
      { label: 'Deci Bitcoin Futures', href: '/exchange/products/deci-bitcoin-futures/' },
      { label: 'Hashrate Petahash Futures', href: '/exchange/products/hashrate-petahash-futures/' },
    ],
  },
  {
    title: 'Exchange',
    links: [
      { label: 'Exchange', href: '/exchange/' },
      { label: 'Exchange Docs', href: '/exchange/docs/' },
      { label: 'Exchange Regulation', href: '/exchange/regulation/' },
    ],
  },
  {
    title: 'Clearing',
    links: [
      { label: 'Clearing', href: '/clearing/' },
      { label: 'Clearing Regulatory Disclosures', href: '/clearing/regulation/disclosures/' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Disclosures', href: '/disclosures' },
      { label: 'Privacy Policy', href: '/privacy' },
      { label: 'Terms of Use', href: '/terms' },
    ],
  },
];

/** The footer of every page. */
export function Footer() {
  return (
    <Box
      component="footer"
      sx={{ bgcolor: NAVY, color: '#d7dee8', px: 3, pt: 4, pb: 3, mt: 'auto' }}
    >
      <Box component="nav" aria-label="Footer" sx={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
        {FOOTER_GROUPS.map((group) => (
          <Box key={group.title} sx={{ minWidth: 160 }}>
            <Typography
              component="h2"
              sx={{ fontSize: '0.8rem', fontWeight: 700, textTransform: 'uppercase', mb: 1 }}
            >
              {group.title}
            </Typography>
            <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {group.links.map((link) => (
                <Box component="li" key={link.href} sx={{ mb: 0.5 }}>
                  <Link
                    href={link.href}
                    color="inherit"
                    underline="hover"
                    sx={{ fontSize: '0.875rem' }}
                  >
                    {link.label}
                  </Link>
                </Box>
              ))}
            </Box>
          </Box>
        ))}
      </Box>
      <Typography sx={{ fontSize: '0.8rem', mt: 3, color: '#aab6c6' }}>
        © {new Date().getFullYear()} {firm.displayName}. Support:{' '}
        <Link href={`mailto:${firm.supportEmail}`} color="inherit">
          {firm.supportEmail}
        </Link>{' '}
        · {firm.supportPhone}
      </Typography>
    </Box>
  );
}
