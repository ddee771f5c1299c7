import { queryOptions, useQuery } from '@tanstack/react-query';
import { DISCLOSURES_API_PATH, type DisclosuresResponse } from '../../shared/api/disclosures';
import { ApiError } from './client';

/**
 * GET /clearing/api/web/disclosures (docs/decisions.md, Paths): the published regulatory documents.
 * Public, so it sends no CSRF header and a 401 never redirects; it lives outside `apiFetch`'s
 * /exchange/api/web base, hence its own small request.
 */
async function getDisclosures(signal?: AbortSignal): Promise<DisclosuresResponse> {
  const response = await fetch(DISCLOSURES_API_PATH, {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { errorMessage?: string } | null;
    throw new ApiError(
      response.status,
      body?.errorMessage ? { errorMessage: body.errorMessage } : null,
    );
  }
  return (await response.json()) as DisclosuresResponse;
}

const disclosuresQueryOptions = () =>
  queryOptions({
    queryKey: ['disclosures'],
    queryFn: ({ signal }) => getDisclosures(signal),
    // Published at most daily: one fetch serves every disclosures page of a visit.
    staleTime: 5 * 60_000,
  });

export function useDisclosures() {
  return useQuery(disclosuresQueryOptions());
}
