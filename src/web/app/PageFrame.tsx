import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { DesktopOnlyNotice } from './DesktopOnlyNotice';
import { Footer } from './Footer';

const MAIN_ID = 'main-content';

/**
 * The first thing a keyboard user reaches (WCAG 2.4.1 bypass blocks): hidden until focused, it
 * moves focus past the header's links to the page's content.
 */
function SkipLink() {
  return (
    <Link
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        // The router owns the URL: move focus without changing it.
        event.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
      sx={{
        position: 'absolute',
        left: 8,
        top: 8,
        zIndex: 2000,
        px: 2,
        py: 1,
        bgcolor: 'background.paper',
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      Skip to main content
    </Link>
  );
}

/**
 * Skip link, the header given, the desktop-only notice, the page, the footer: the frame of every
 * page, the app's (Layout) and the Profile page's, which lives outside the app's router.
 */
export function PageFrame({ header, children }: { header: ReactNode; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <SkipLink />
      {header}
      <Box
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        sx={{
          flexGrow: 1,
          // A screen tall at least: the footer starts below the fold, so a page whose content
          // arrives after its first paint (the lazy page, the statement) never pushes the footer
          // across the screen (layout shift, issue 19 §9).
          minHeight: '100vh',
          display: 'flex',
          flexDirection: 'column',
          '&:focus': { outline: 'none' },
        }}
      >
        <DesktopOnlyNotice />
        {children}
      </Box>
      <Footer />
    </Box>
  );
}
