import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { requireFreshSession, sessionRenewal } from './sessionExpiry';

// Loaded when first asked for: pages that never meet an expired session carry no dialog code.
const SessionExpiredDialog = lazy(() =>
  import('./SessionExpiredDialog').then((module) => ({ default: module.SessionExpiredDialog })),
);
const SessionDeclinedNotice = lazy(() =>
  import('./SessionDeclinedNotice').then((module) => ({ default: module.SessionDeclinedNotice })),
);

/**
 * Where `requireFreshSession` asks: the sign-in dialog while a call waits for a fresh session,
 * and after a cancel a notice that the answers on the page are kept (with a way back to the
 * dialog). Mounted once, by AppProviders.
 */
export function SessionRenewalHost() {
  const requested = useSyncExternalStore(sessionRenewal.subscribe, sessionRenewal.requested);
  const [declined, setDeclined] = useState(false);
  useEffect(() => sessionRenewal.attach(), []);

  return (
    <>
      {requested && (
        <Suspense fallback={null}>
          <SessionExpiredDialog
            onSignedIn={() => sessionRenewal.renewed()}
            onCancel={() => {
              sessionRenewal.declined();
              setDeclined(true);
            }}
          />
        </Suspense>
      )}
      {declined && !requested && (
        <Suspense fallback={null}>
          <SessionDeclinedNotice
            onClose={() => setDeclined(false)}
            onSignIn={() => {
              setDeclined(false);
              // Nothing waits on this sign-in; a cancel here just closes it again.
              requireFreshSession().catch(() => {});
            }}
          />
        </Suspense>
      )}
    </>
  );
}
