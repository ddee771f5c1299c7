/** Routing guards of access §2 and business §6. */
import { Navigate, Outlet, useLocation, useParams, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect } from 'react';
import { hasRegistered, type User } from '../../shared/api/auth';
import { browserLocation } from '../api/client';
import { useCurrentUser } from '../api/get-current-user';
import { ADMIN_SITE_URL, postSignInPath, signInPath } from './session';
import { registrationKind } from '../forms/registrationForms';
import { NotFoundPage } from '../pages/errors/NotFoundPage';

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
  // A registration form no catalog has is no page, signed in or out (issue 38 §4).
  const { formId } = useParams();
  if (formId !== undefined && !registrationKind(formId)) return <NotFoundPage />;
  if (isPending) return <Loading />;
  if (!user) {
    return <Navigate to={signInPath('signin-required', `/clearing${pathname}${search}`)} replace />;
  }
  return <Outlet />;
}

/** Loads the staff console in full (a separate site: access §4 sends staff there). */
function StaffConsole() {
  useEffect(() => {
    browserLocation.assign(ADMIN_SITE_URL);
  }, []);
  return <Loading />;
}

/** Staff who have no customer registration of their own belong in the staff console. */
const staffOnly = (user: User) => user.isNorthstarClearingStaff && !hasRegistered(user);

/**
 * Pages for users who have registered: staff without a registration go to the staff console,
 * other users without one to /clearing/registration.
 */
export function RegisteredRoute() {
  const { data: user } = useCurrentUser();
  if (user && staffOnly(user)) return <StaffConsole />;
  if (user && !hasRegistered(user)) return <Navigate to="/registration" replace />;
  return <Outlet />;
}

/**
 * Registration pages: users who have already registered go to /clearing/home; staff without a
 * registration to the staff console (they review registrations, they do not file one).
 */
export function UnregisteredRoute() {
  const { data: user } = useCurrentUser();
  if (user && staffOnly(user)) return <StaffConsole />;
  if (user && hasRegistered(user)) return <Navigate to="/home" replace />;
  return <Outlet />;
}
