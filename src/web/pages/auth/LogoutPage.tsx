import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '../../api/get-current-user';
import { signOut } from '../../api/sign-out';
import { Loading } from '../../app/guards';
import { PageTitle } from '../../app/PageTitle';
import { endClientSession, signInPath } from '../../app/session';

/**
 * /clearing/logout: signs out (a failure is only logged), forgets cached data and drafts, then
 * goes to sign-in with the logged-out message. It guards itself, once, on arrival, so that ending
 * the session does not send it through the protected-page redirect.
 */
export function LogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: user, isPending } = useCurrentUser();
  const started = useRef(false);

  useEffect(() => {
    if (isPending || started.current) return;
    started.current = true;
    if (!user) {
      void navigate(signInPath('signin-required'), { replace: true });
      return;
    }
    void (async () => {
      try {
        await signOut();
      } catch (error) {
        console.error('Sign-out failed', error);
      }
      endClientSession(queryClient);
      await navigate(signInPath('logged-out'), { replace: true });
    })();
  }, [isPending, user, navigate, queryClient]);

  return (
    <>
      <PageTitle title="Signing Out" />
      <Loading />
    </>
  );
}
