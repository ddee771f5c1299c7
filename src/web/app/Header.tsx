import { lazy, Suspense } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import type { User } from '../../shared/api/auth';
import { firm } from '../../shared/config/firm';
import { ADMIN_SITE_URL } from './session';
import { NAVY } from './theme';

/** Links to the exchange's other sites (the firm's configuration): plain anchors, full loads. */
const HEADER_LINKS = [
  firm.siteLinks.products,
  firm.siteLinks.about,
  firm.siteLinks.docs,
  firm.siteLinks.help,
] as const;

// Only signed-in users have the menu: its popover code stays off the sign-in route's bundle.
const ProfileMenu = lazy(() =>
  import('./ProfileMenu').then((module) => ({ default: module.ProfileMenu })),
);

interface HeaderProps {
  user: User | null;
  dark?: boolean;
  hideProfileMenu?: boolean;
  hideSignIn?: boolean;
}

/** The shared header: top bar (legal links, Admin Site, Sign In / Signout) and main bar. */
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
        }}
      >
        <Box component="nav" aria-label="Legal" sx={{ display: 'flex', gap: 2 }}>
          <Link href="/disclosures" color="inherit" underline="hover">
            Disclosures
          </Link>
          <Link
            component={RouterLink}
            to="/regulation/disclosures"
            color="inherit"
            underline="hover"
          >
            Regulatory Disclosures
          </Link>
        </Box>
        <Box sx={{ flexGrow: 1 }} />
        {staff && (
          <Link href={ADMIN_SITE_URL} color="inherit" underline="hover">
            Admin Site
          </Link>
        )}
        {user ? (
          <Button component={RouterLink} to="/logout" size="small" color="inherit">
            Signout
          </Button>
        ) : (
          !hideSignIn && (
            <Button component={RouterLink} to="/signin" size="small" color="inherit">
              Sign In
            </Button>
          )
        )}
      </Box>
      <Toolbar sx={{ gap: 4, px: 3 }}>
        <Link
          component={RouterLink}
          to="/"
          color="inherit"
          underline="none"
          sx={{ fontWeight: 700, fontSize: '1.25rem', letterSpacing: 0.3 }}
        >
          {firm.displayName}
        </Link>
        <Box component="nav" aria-label="Main" sx={{ display: 'flex', gap: 3 }}>
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
          <Suspense fallback={null}>
            <ProfileMenu staff={staff} showProfile={!dark} />
          </Suspense>
        )}
      </Toolbar>
    </AppBar>
  );
}
