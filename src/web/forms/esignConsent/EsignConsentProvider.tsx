import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { EsignConsentState } from '../../../shared/api/esignConsent';
import { getEsignConsent } from '../../api/esign-consent';
import { lazyPart, PartBoundary } from '../../app/LazyPart';
import { onClientSessionEnd } from '../../app/session';
import { SessionRenewalDeclined } from '../../app/sessionExpiry';

// Loaded on the first signature: pages that sign nothing carry neither the dialog nor its text.
// Offline, its import fails: the page stays, says so, and offers Try again or Close (no signature).
const EsignConsentDialog = lazyPart(() =>
  import('./EsignConsentDialog').then((module) => module.EsignConsentDialog),
);

/** What an agreement asks before its first signature. */
interface EsignConsentGate {
  /**
   * Resolves true once the user's consent to the version in force is given (asking in the
   * dialog when the server holds none), false when they cancel: then nothing is signed.
   */
  request(): Promise<boolean>;
  /** Forgets what the server said (a submission refused for want of consent asks again). */
  forget(): void;
}

const EsignConsentContext = createContext<EsignConsentGate | null>(null);

/**
 * The gate agreements ask before signing; null outside a provider (the forms preview, a form
 * drawn on its own), where signing asks nothing: the server still refuses signatures without
 * consent.
 */
export function useEsignConsentGate(): EsignConsentGate | null {
  return useContext(EsignConsentContext);
}

/**
 * Asks for the e-sign consent (ESIGN 15 U.S.C. 7001(c)) before the first electronic signature:
 * the server says whether the user gave it for the version in force; if not, the dialog shows
 * the disclosure and stores the confirmation. Once given it is not asked again (the answer is
 * kept until the session ends).
 */
export function EsignConsentProvider({ children }: { children: ReactNode }) {
  const known = useRef<EsignConsentState | null>(null);
  const asking = useRef<Promise<boolean> | null>(null);
  const [dialog, setDialog] = useState<{
    version: string | undefined;
    finish: (state: EsignConsentState | null) => void;
  }>();

  useEffect(
    () =>
      onClientSessionEnd(() => {
        known.current = null;
      }),
    [],
  );

  const gate = useMemo<EsignConsentGate>(
    () => ({
      request() {
        if (known.current?.consent) return Promise.resolve(true);
        asking.current ??= (async () => {
          try {
            known.current = await getEsignConsent();
          } catch (error) {
            // A cancelled sign-in signs nothing; any other failure the dialog meets and says.
            if (error instanceof SessionRenewalDeclined) return false;
          }
          if (known.current?.consent) return true;
          return new Promise<boolean>((resolve) => {
            setDialog({
              version: known.current?.version,
              finish: (state) => {
                if (state) known.current = state;
                setDialog(undefined);
                resolve(state !== null);
              },
            });
          });
        })().finally(() => {
          asking.current = null;
        });
        return asking.current;
      },
      forget() {
        known.current = null;
      },
    }),
    [],
  );

  return (
    <EsignConsentContext.Provider value={gate}>
      {children}
      {dialog && (
        <PartBoundary retry={EsignConsentDialog.retry} onClose={() => dialog.finish(null)} floating>
          <EsignConsentDialog
            version={dialog.version}
            onConsented={(state) => dialog.finish(state)}
            onCancel={() => dialog.finish(null)}
          />
        </PartBoundary>
      )}
    </EsignConsentContext.Provider>
  );
}
