import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';

/**
 * A link to a disclosure PDF: a plain anchor (a full page load, never the router) opening in a
 * new tab, so the list and its expanded months stay where the reader left them.
 */
export function PdfLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" underline="hover">
      {children}
    </Link>
  );
}

/** Period links in columns: a year of month-ends or a month of days reads at a glance. */
export function PdfLinkGrid({
  links,
  label,
}: {
  links: Array<{ href: string; text: string }>;
  label: string;
}) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(8.5rem, 1fr))',
        gap: 1.25,
        fontVariantNumeric: 'tabular-nums',
      }}
    >
      {links.map((link) => (
        <li key={link.href}>
          <PdfLink href={link.href}>{link.text}</PdfLink>
        </li>
      ))}
    </Box>
  );
}
