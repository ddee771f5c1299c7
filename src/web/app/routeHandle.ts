import { useMatches } from 'react-router-dom';

/** Per-route layout flags, set on the route's `handle`. */
export interface RouteHandle {
  /** Dark header variant (registration, sign-in, verify-email, reset-password, accept-invite). */
  darkHeader?: boolean;
  /** No profile menu at all (verify-email, reset-password, accept-invite). */
  hideProfileMenu?: boolean;
  /** No Sign In button in the top bar (sign-in page). */
  hideSignIn?: boolean;
}

/** The merged handles of the matched routes, innermost winning. */
export function useRouteHandle(): RouteHandle {
  return useMatches().reduce<RouteHandle>(
    (merged, match) => ({ ...merged, ...((match.handle as RouteHandle | undefined) ?? {}) }),
    {},
  );
}
