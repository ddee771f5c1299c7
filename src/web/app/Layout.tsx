import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { useCurrentUser } from '../api/get-current-user';
import { Header } from './Header';
import { Loading } from './guards';
import { PageFrame } from './PageFrame';
import { useRouteHandle } from './routeHandle';

/** Header (in the route's variant), desktop-only notice, the page, footer: the app's frame. */
export function Layout() {
  const handle = useRouteHandle();
  const { data: user } = useCurrentUser();
  return (
    <PageFrame
      header={
        <Header
          user={user ?? null}
          dark={handle.darkHeader}
          hideProfileMenu={handle.hideProfileMenu}
          hideSignIn={handle.hideSignIn}
        />
      }
    >
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </PageFrame>
  );
}
