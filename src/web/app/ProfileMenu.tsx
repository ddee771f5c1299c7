import { useId, useState } from 'react';
import { Link as RouterLink, useInRouterContext, useLocation } from 'react-router-dom';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import AccountCircle from '@mui/icons-material/AccountCircle';
import { ADMIN_SITE_URL, PROFILE_URL } from './session';

interface ProfileMenuProps {
  staff: boolean;
  showProfile: boolean;
}

/**
 * The profile dropdown: Profile, Clearing Admin (staff only), Logout (access §2). Inside the app
 * it closes whenever the page changes; on a page outside the app's router (Profile) every item
 * is a full page load.
 */
export function ProfileMenu(props: ProfileMenuProps) {
  return useInRouterContext() ? <InAppProfileMenu {...props} /> : <MenuOf {...props} />;
}

function InAppProfileMenu(props: ProfileMenuProps) {
  // A new page draws a new (closed) menu.
  return <MenuOf key={useLocation().pathname} {...props} inApp />;
}

function MenuOf({ staff, showProfile, inApp = false }: ProfileMenuProps & { inApp?: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const close = () => setAnchor(null);
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
        {inApp ? (
          <MenuItem component={RouterLink} to="/logout" onClick={close}>
            Logout
          </MenuItem>
        ) : (
          <MenuItem component="a" href="/clearing/logout">
            Logout
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
