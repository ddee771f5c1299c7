import { useId, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import AccountCircle from '@mui/icons-material/AccountCircle';
import type { User } from '../../shared/api/auth';
import { firm } from '../../shared/config/firm';
import { ADMIN_SITE_URL } from './session';
import { NAVY } from './theme';

/** Links to the exchange's other sites: plain anchors, so the browser loads them in full. */
export const HEADER_LINKS = [
  { label: 'Products', href: '/exchange/products/' },
  { label: 'About', href: '/about' },
  { label: 'Docs', href: '/exchange/docs/' },
  { label: 'Help', href: '/help' },
] as const;
/** The exchange's profile page (outside /clearing: full page load). */
export const PROFILE_URL = '/exchange/dashboard/profile';

export interface HeaderProps {
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
        {user && !hideProfileMenu && <ProfileMenu staff={staff} showProfile={!dark} />}
      </Toolbar>
    </AppBar>
  );
}

function ProfileMenu({ staff, showProfile }: { staff: boolean; showProfile: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const location = useLocation();
  const close = () => setAnchor(null);
  // Close the menu whenever the page changes.
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setAnchor(null);
  }
  return (
    <>
      <IconButton
        color="inherit"
        aria-label="Profile menu"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <AccountCircle />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {showProfile && (
          <MenuItem component="a" href={PROFILE_URL}>
            Profile
          </MenuItem>
        )}
        {staff && (
          <MenuItem component="a" href={ADMIN_SITE_URL}>
            Clearing Admin
          </MenuItem>
        )}
        <MenuItem component={RouterLink} to="/logout" onClick={close}>
          Logout
        </MenuItem>
      </Menu>
    </>
  );
}
