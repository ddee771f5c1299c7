import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useCurrentUser } from '../api/get-current-user';
import { DesktopOnlyNotice } from './DesktopOnlyNotice';
import { Footer } from './Footer';
import { Header } from './Header';
import { Loading } from './guards';
import { useRouteHandle } from './routeHandle';

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

/** Header, desktop-only notice, the page, footer: the frame of every page. */
export function Layout() {
  const handle = useRouteHandle();
  const { data: user } = useCurrentUser();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <SkipLink />
      <Header
        user={user ?? null}
        dark={handle.darkHeader}
        hideProfileMenu={handle.hideProfileMenu}
        hideSignIn={handle.hideSignIn}
      />
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
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </Box>
      <Footer />
    </Box>
  );
}
