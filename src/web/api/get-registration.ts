import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RegistrationOverview } from '../../shared/api/registration';
import { apiFetch } from './client';

export const registrationOverviewQueryKey = ['registration-overview'] as const;

/** GET registration: where the user's registration stands, its statuses and requested changes. */
const registrationOverviewQueryOptions = () =>
  queryOptions({
    queryKey: registrationOverviewQueryKey,
    queryFn: () => apiFetch<RegistrationOverview>('registration'),
  });

/** Fetched only for a user with a registration (home's timeline). */
export function useRegistrationOverview(enabled: boolean) {
  return useQuery({ ...registrationOverviewQueryOptions(), enabled });
}
