import { useId, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import AccountCircle from '@mui/icons-material/AccountCircle';
import { ADMIN_SITE_URL, PROFILE_URL } from './session';

/** The profile dropdown: Profile, Clearing Admin (staff only), Logout (access §2). */
export function ProfileMenu({ staff, showProfile }: { staff: boolean; showProfile: boolean }) {
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
