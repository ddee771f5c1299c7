/** Routing guards of access §2 and business §6. */
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { hasRegistered } from '../../shared/api/auth';
import { useCurrentUser } from '../api/get-current-user';
import { postSignInPath, signInPath } from './session';

export function Loading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 10 }}>
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}

/**
 * Pages for signed-out visitors. A signed-in user on /clearing goes to /clearing/home, on the
 * sign-in page where signing in leads (so this guard and the sign-in page agree), elsewhere to
 * /clearing.
 */
export function SignedOutRoute() {
  const { data: user, isPending } = useCurrentUser();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  if (isPending) return <Loading />;
  if (!user) return <Outlet />;
  if (pathname === '/') return <Navigate to="/home" replace />;
  if (pathname === '/signin') {
    return <Navigate to={postSignInPath(user, params.get('redirect'))} replace />;
  }
  return <Navigate to="/" replace />;
}

/** Pages for signed-in users; others go to sign-in with the message and the way back. */
export function ProtectedRoute() {
  const { data: user, isPending } = useCurrentUser();
  const { pathname, search } = useLocation();
  if (isPending) return <Loading />;
  if (!user) {
    return <Navigate to={signInPath('signin-required', `/clearing${pathname}${search}`)} replace />;
  }
  return <Outlet />;
}

/** Pages for users who have registered: the others go to /clearing/registration. */
export function RegisteredRoute() {
  const { data: user } = useCurrentUser();
  if (user && !hasRegistered(user)) return <Navigate to="/registration" replace />;
  return <Outlet />;
}

/** Registration pages: users who have already registered go to /clearing/home. */
export function UnregisteredRoute() {
  const { data: user } = useCurrentUser();
  if (user && hasRegistered(user)) return <Navigate to="/home" replace />;
  return <Outlet />;
}
