import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { requireFreshSession, SessionRenewalDeclined, sessionRenewal } from './sessionExpiry';

// Loaded when first asked for: pages that never meet an expired session carry no dialog code.
const SessionExpiredDialog = lazy(() =>
  import('./SessionExpiredDialog').then((module) => ({ default: module.SessionExpiredDialog })),
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
      <Snackbar
        open={declined && !requested}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          severity="info"
          onClose={() => setDeclined(false)}
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                setDeclined(false);
                // Nothing waits on this sign-in; a cancel here just closes it again.
                requireFreshSession().catch(() => {});
              }}
            >
              Sign in
            </Button>
          }
        >
          {new SessionRenewalDeclined().message}
        </Alert>
      </Snackbar>
    </>
  );
}
