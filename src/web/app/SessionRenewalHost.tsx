import { useEffect, useState, useSyncExternalStore } from 'react';
import { lazyPart, PartBoundary } from './LazyPart';
import { requireFreshSession, sessionRenewal } from './sessionExpiry';

// Loaded when first asked for: pages that never meet an expired session carry no dialog code.
const SessionExpiredDialog = lazyPart(() =>
  import('./SessionExpiredDialog').then((module) => module.SessionExpiredDialog),
);
const SessionDeclinedNotice = lazyPart(() =>
  import('./SessionDeclinedNotice').then((module) => module.SessionDeclinedNotice),
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
        <PartBoundary retry={SessionExpiredDialog.retry} floating>
          <SessionExpiredDialog
            onSignedIn={() => sessionRenewal.renewed()}
            onCancel={() => {
              sessionRenewal.declined();
              setDeclined(true);
            }}
          />
        </PartBoundary>
      )}
      {declined && !requested && (
        <PartBoundary
          retry={SessionDeclinedNotice.retry}
          onClose={() => setDeclined(false)}
          floating
        >
          <SessionDeclinedNotice
            onClose={() => setDeclined(false)}
            onSignIn={() => {
              setDeclined(false);
              // Nothing waits on this sign-in; a cancel here just closes it again.
              requireFreshSession().catch(() => {});
            }}
          />
        </PartBoundary>
      )}
    </>
  );
}
