import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/** The app's query client: client errors (4xx) are not retried, others once. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 1,
      },
      mutations: { retry: false },
    },
  });
}
