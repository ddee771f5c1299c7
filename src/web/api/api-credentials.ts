/**
 * The organisation's API credentials (src/server/routes/apiCredentials.ts), for the Profile page's
 * section its Administrators see: list, create (the identity confirmed again), revoke.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApiCredential,
  ApiCredentialList,
  ApiScope,
  CreatedApiCredential,
} from '../../shared/api/apiCredentials';
import type { IdentityConfirmation } from '../../shared/api/account';
import { apiFetch } from './client';

const credentialsQueryKey = ['api-credentials'] as const;

const getApiCredentials = () => apiFetch<ApiCredentialList>('user/api-credentials');

/** The organisation's credentials; a 403 means the user is no Administrator of one. */
export const useApiCredentials = () =>
  useQuery({ queryKey: credentialsQueryKey, queryFn: getApiCredentials, retry: false });

function useCredentialMutation<Variables, Result>(call: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialsQueryKey }),
  });
}

export const useCreateApiCredential = () =>
  useCredentialMutation((body: { name: string; scopes: ApiScope[] } & IdentityConfirmation) =>
    apiFetch<CreatedApiCredential>('user/api-credentials', { method: 'POST', body }),
  );

export const useRevokeApiCredential = () =>
  useCredentialMutation((id: string) =>
    apiFetch<ApiCredential>(`user/api-credentials/${encodeURIComponent(id)}`, {
      method: 'DELETE',
    }),
  );
