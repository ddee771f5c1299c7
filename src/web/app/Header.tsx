import type { ReactNode } from 'react';
import { Link as RouterLink, useInRouterContext } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link, { type LinkProps } from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import type { User } from '../../shared/api/auth';
import { firm } from '../../shared/config/firm';
import { ADMIN_SITE_URL } from './session';
import { BELOW_DESKTOP, NAVY } from './theme';
import { lazyPart, PartBoundary } from './LazyPart';

/** Links to the exchange's other sites (the firm's configuration): plain anchors, full loads. */
const HEADER_LINKS = [
  firm.siteLinks.products,
  firm.siteLinks.about,
  firm.siteLinks.docs,
  firm.siteLinks.help,
] as const;

// Only signed-in users have the menu: its popover code stays off the sign-in route's bundle.
const ProfileMenu = lazyPart(() => import('./ProfileMenu').then((module) => module.ProfileMenu));

interface HeaderProps {
  user: User | null;
  dark?: boolean;
  hideProfileMenu?: boolean;
  hideSignIn?: boolean;
}

/** The app's address outside its router (the Profile page, a page of its own). */
const APP_BASE = '/clearing';

/**
 * A link to a page of the app (`to` relative to /clearing): through the router inside the app,
 * a full page load from a page outside it (Profile), which has no router.
 */
function AppLink({ to, ...props }: { to: string } & Omit<LinkProps, 'href'>) {
  return useInRouterContext() ? (
    <Link component={RouterLink} to={to} {...props} />
  ) : (
    <Link href={`${APP_BASE}${to}`} {...props} />
  );
}

/** A small text button to a page of the app, as {@link AppLink} reaches it. */
function AppButton({ to, children }: { to: string; children: ReactNode }) {
  return useInRouterContext() ? (
    <Button component={RouterLink} to={to} size="small" color="inherit">
      {children}
    </Button>
  ) : (
    <Button href={`${APP_BASE}${to}`} size="small" color="inherit">
      {children}
    </Button>
  );
}

/**
 * The shared header: top bar (legal links, Admin Site, Sign In / Signout) and main bar. Below
 * the desktop breakpoint its bars wrap instead of running off the screen: the main bar keeps the
 * brand and the account menu on its first line and puts the site links (Help among them) on the
 * next, so everything stays on screen and reachable at 390 px.
 */
export function Header({
  user,
  dark = false,
  hideProfileMenu = false,
  hideSignIn = false,
}: HeaderProps) {
  const staff = user?.isNorthstarClearingStaff === true;
  const foreground = dark ? '#ffffff' : NAVY;
  return (
    <AppBar
      component="header"
      position="static"
      elevation={0}
      data-variant={dark ? 'dark' : 'light'}
      sx={{
        bgcolor: dark ? NAVY : 'background.paper',
        color: foreground,
        borderBottom: dark ? 'none' : '1px solid #dde3ea',
      }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          px: 3,
          minHeight: 36,
          fontSize: '0.8125rem',
          bgcolor: dark ? '#07162b' : '#eef2f7',
          [BELOW_DESKTOP]: { flexWrap: 'wrap', columnGap: 2, rowGap: 0, px: 2 },
        }}
      >
        <Box
          component="nav"
          aria-label="Legal"
          sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}
        >
          <Link href="/disclosures" color="inherit" underline="hover">
            Disclosures
          </Link>
          <AppLink to="/regulation/disclosures" color="inherit" underline="hover">
            Regulatory Disclosures
          </AppLink>
        </Box>
        <Box sx={{ flexGrow: 1 }} />
        {staff && (
          <Link href={ADMIN_SITE_URL} color="inherit" underline="hover">
            Admin Site
          </Link>
        )}
        {user ? (
          <AppButton to="/logout">Signout</AppButton>
        ) : (
          !hideSignIn && <AppButton to="/signin">Sign In</AppButton>
        )}
      </Box>
      <Toolbar
        sx={{
          gap: 4,
          px: 3,
          [BELOW_DESKTOP]: { flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, px: 2, py: 1 },
        }}
      >
        <AppLink
          to="/"
          color="inherit"
          underline="none"
          sx={{ fontWeight: 700, fontSize: '1.25rem', letterSpacing: 0.3, whiteSpace: 'nowrap' }}
        >
          {firm.displayName}
        </AppLink>
        <Box
          component="nav"
          aria-label="Main"
          sx={{
            display: 'flex',
            gap: 3,
            // Its own line under the brand and the menu.
            [BELOW_DESKTOP]: { order: 1, flexBasis: '100%', flexWrap: 'wrap', columnGap: 2.5 },
          }}
        >
          {HEADER_LINKS.map((link) => (
            <Link
              key={link.href}
              href={link.href}
              color="inherit"
              underline="hover"
              sx={{ fontWeight: 500 }}
            >
              {link.label}
            </Link>
          ))}
        </Box>
        <Box sx={{ flexGrow: 1 }} />
        {user && !hideProfileMenu && (
          <PartBoundary retry={ProfileMenu.retry}>
            <ProfileMenu staff={staff} showProfile={!dark} />
          </PartBoundary>
        )}
      </Toolbar>
    </AppBar>
  );
}
