/**
 * The profile page's calls (src/server/routes/account.ts, user/2fa): fetchers, query options and
 * hooks, one per endpoint as in the rest of `api/`.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChangeEmailBody,
  ChangePasswordBody,
  IdentityConfirmation,
  PasskeyCreationOptions,
  PasskeyRegistrationBody,
  PasskeySigninBody,
  Profile,
  SessionList,
  SessionsEnded,
} from '../../shared/api/account';
import type {
  RecoveryCodes,
  SigninResult,
  TwoFactorEnrolment,
  TwoFactorState,
} from '../../shared/api/auth';
import { apiFetch } from './client';

export const profileQueryKey = ['profile'] as const;
const sessionsQueryKey = ['sessions'] as const;

const getProfile = () => apiFetch<Profile>('user/profile');
const profileQueryOptions = () => queryOptions({ queryKey: profileQueryKey, queryFn: getProfile });
export const useProfile = () => useQuery(profileQueryOptions());

const getSessions = () => apiFetch<SessionList>('user/sessions');
export const useSessions = () => useQuery({ queryKey: sessionsQueryKey, queryFn: getSessions });

/** A mutation that refreshes the profile and the sessions once it has run. */
function useAccountMutation<Variables, Result>(call: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQueryKey }),
        queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
      ]);
    },
  });
}

export const useEndSession = () =>
  useAccountMutation(({ id, password }: { id: string; password: string }) =>
    apiFetch<SessionsEnded>(`user/sessions/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      body: { password },
    }),
  );

export const useEndOtherSessions = () =>
  useAccountMutation((password: string) =>
    apiFetch<SessionsEnded>('user/sessions/end-others', { method: 'POST', body: { password } }),
  );

export const useChangePassword = () =>
  useAccountMutation((body: ChangePasswordBody) =>
    apiFetch<SessionsEnded>('user/password', { method: 'POST', body }),
  );

/** POST user/2fa: a new pending secret, after the password again (and a passkey, if any). */
export const startTotpEnrolment = (proof: IdentityConfirmation) =>
  apiFetch<TwoFactorEnrolment>('user/2fa', { method: 'POST', body: proof });

export const useConfirmTotp = () =>
  useAccountMutation((totpCode: string) =>
    apiFetch<TwoFactorState>('user/2fa', { method: 'PATCH', body: { totpCode } }),
  );

/** POST user/2fa/recovery-codes: a new set, shown once; the old set stops working. */
export const useNewRecoveryCodes = () =>
  useAccountMutation((proof: IdentityConfirmation) =>
    apiFetch<RecoveryCodes>('user/2fa/recovery-codes', { method: 'POST', body: proof }),
  );

export const useDisableTotp = () =>
  useAccountMutation((proof: IdentityConfirmation) =>
    apiFetch<TwoFactorState>('user/2fa', { method: 'DELETE', body: proof }),
  );

export const passkeyCreationOptions = (proof: IdentityConfirmation) =>
  apiFetch<PasskeyCreationOptions>('user/passkeys/options', { method: 'POST', body: proof });

/** POST user/reauth/passkey-options: a challenge for a passkey to confirm a change with. */
export const reauthPasskeyOptions = () =>
  apiFetch<
    NonNullable<Extract<SigninResult, { authStatus: 'TwoFactorRequired' }>['passkeyOptions']>
  >('user/reauth/passkey-options', { method: 'POST' });

export const addPasskey = (body: PasskeyRegistrationBody) =>
  apiFetch<Profile['passkeys'][number]>('user/passkeys', { method: 'POST', body });

export const useRemovePasskey = () =>
  useAccountMutation(({ id, ...proof }: IdentityConfirmation & { id: string }) =>
    apiFetch<Record<string, never>>(`user/passkeys/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      body: proof,
    }),
  );

/** POST auth/signin/passkey: the sign-in's second step answered with a passkey. */
export const signInWithPasskey = (body: PasskeySigninBody) =>
  apiFetch<SigninResult>('auth/signin/passkey', { method: 'POST', body });

/** POST user/email: a link goes to the new address; nothing changes until it is opened. */
export const useChangeEmail = () =>
  useMutation({
    mutationFn: (body: ChangeEmailBody) =>
      apiFetch<Record<string, never>>('user/email', { method: 'POST', body }),
  });

/** POST auth/email/confirm: the emailed link's token makes the new address the sign-in email. */
export const confirmEmail = (token: string) =>
  apiFetch<{ email: string }>('auth/email/confirm', { method: 'POST', body: { token } });
