import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import type { StatementResponse } from '../../shared/api/statement';
import { ApiError, apiFetch } from './client';

/**
 * GET customer/{organizationId}/statement (docs/decisions.md, Paths; business §7.2): the newest
 * statement of the caller's organisation, or null when none is available yet (the server answers
 * 404, and home then shows the approval banner instead).
 */
async function getStatement(
  organizationId: string,
  signal?: AbortSignal,
): Promise<StatementResponse | null> {
  try {
    return await apiFetch<StatementResponse>(
      `customer/${encodeURIComponent(organizationId)}/statement`,
      { signal },
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const statementQueryKey = (organizationId: string | null | undefined) =>
  ['statement', organizationId ?? null] as const;

/**
 * Keyed by organisation; skipped (never fetched) without an organisation id (business §2.5).
 * The query function does not take react-query's abort signal on purpose: home mounts twice on
 * the way in from sign-in, and an unused signal lets the second mount share the first request
 * instead of aborting it and asking again.
 */
const statementQueryOptions = (organizationId: string | null | undefined) =>
  queryOptions({
    queryKey: statementQueryKey(organizationId),
    queryFn: organizationId ? () => getStatement(organizationId) : skipToken,
  });

/**
 * The statement of `organizationId`. `enabled: false` keeps it from being fetched at all (home
 * passes the approval flag: the statement is shown only to approved customers, §6).
 */
export function useStatement(
  organizationId: string | null | undefined,
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({
    ...statementQueryOptions(organizationId),
    enabled: enabled && Boolean(organizationId),
  });
}
