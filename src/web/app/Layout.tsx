import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import Box from '@mui/material/Box';
import { useCurrentUser } from '../api/get-current-user';
import { DesktopOnlyNotice } from './DesktopOnlyNotice';
import { Footer } from './Footer';
import { Header } from './Header';
import { Loading } from './guards';
import { useRouteHandle } from './routeHandle';

/** Header, desktop-only notice, the page, footer: the frame of every page. */
export function Layout() {
  const handle = useRouteHandle();
  const { data: user } = useCurrentUser();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <Header
        user={user ?? null}
        dark={handle.darkHeader}
        hideProfileMenu={handle.hideProfileMenu}
        hideSignIn={handle.hideSignIn}
      />
      <Box component="main" sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column' }}>
        <DesktopOnlyNotice />
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </Box>
      <Footer />
    </Box>
  );
}
