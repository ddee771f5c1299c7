import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RegistrationOverview } from '../../shared/api/registration';
import { apiFetch } from './client';

export const registrationOverviewQueryKey = ['registration-overview'] as const;

const getRegistrationOverview = () => apiFetch<RegistrationOverview>('registration');

/** A GET started beside the home page's code, taken by the page's first query. */
let early: { promise: Promise<RegistrationOverview>; at: number } | undefined;
const EARLY_FRESH_MS = 10_000;

/**
 * Starts loading the overview beside the home page's chunks (issue 26 §1: under load the page
 * otherwise waits for its code, then mounts, then asks, and said "need these changes" for seconds
 * before the list came).
 */
export function loadRegistrationOverviewEarly(): void {
  const promise = getRegistrationOverview();
  promise.catch(() => undefined); // the page's query reports a failure, when it takes this one
  early = { promise, at: Date.now() };
}

function takeEarly(): Promise<RegistrationOverview> | undefined {
  const started = early;
  early = undefined;
  return started && Date.now() - started.at < EARLY_FRESH_MS ? started.promise : undefined;
}

/** GET registration: where the user's registration stands, its statuses and requested changes. */
const registrationOverviewQueryOptions = () =>
  queryOptions({
    queryKey: registrationOverviewQueryKey,
    queryFn: () => takeEarly() ?? getRegistrationOverview(),
  });

/**
 * Home's timeline and requested changes. Only registered users reach home (RegisteredRoute), and
 * the route starts this GET beside the page's code (`loadRegistrationOverviewEarly`): always
 * asked, so the early answer is always the one the page takes.
 */
export function useRegistrationOverview() {
  return useQuery(registrationOverviewQueryOptions());
}
