import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConfigResponse } from '../../shared/api/auth';
import { apiFetch } from './client';

/** GET config: the captcha site key (empty when the captcha is off). */
function getConfig(): Promise<ConfigResponse> {
  return apiFetch<ConfigResponse>('config');
}

const configQueryOptions = () =>
  queryOptions({ queryKey: ['config'], queryFn: getConfig, staleTime: Infinity });

export function useConfig() {
  return useQuery(configQueryOptions());
}
