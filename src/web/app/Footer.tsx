import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { firm, type SiteLink } from '../../shared/config/firm';
import { NAVY } from './theme';

const { siteLinks: site } = firm;

/** Every static link of business §2.6, grouped; all are plain anchors (full page loads). */
const FOOTER_GROUPS: { title: string; links: SiteLink[] }[] = [
  {
    title: 'Company',
    links: [{ label: 'Home', href: '/' }, site.about, site.help, site.news, site.jobs],
  },
  {
    title: 'Products',
    links: [
      site.perpetualBitcoinCentiFutures,
      site.bitcoinFutures,
      site.bitcoinOptions,
      site.deciBitcoinFutures,
      site.hashratePetahashFutures,
    ],
  },
  {
    title: 'Exchange',
    links: [site.exchange, site.exchangeDocs, site.exchangeRegulation],
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
    links: [{ label: 'Disclosures', href: '/disclosures' }, site.privacyPolicy, site.termsOfUse],
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
