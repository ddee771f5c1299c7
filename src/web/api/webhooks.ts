/**
 * The organisation's webhook endpoints and deliveries (src/server/routes/webhooks.ts), for the
 * Profile page's section its Administrators see: endpoints listed, registered (the signing
 * secret answered once), paused, resumed and deleted; deliveries a page at a time, resent.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreatedWebhookEndpoint,
  CreateWebhookEndpoint,
  RolledWebhookSecret,
  UpdateWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
} from '../../shared/api/webhooks';
import { apiFetch } from './client';

const endpointsKey = ['webhooks', 'endpoints'] as const;
const deliveriesKey = ['webhooks', 'deliveries'] as const;
/** Deliveries per page of the section's list. */
const DELIVERIES_PAGE = 10;

/** The organisation's endpoints; a 403 means the user is no Administrator of one. */
export const useWebhookEndpoints = () =>
  useQuery({
    queryKey: endpointsKey,
    queryFn: () => apiFetch<{ data: WebhookEndpoint[] }>('webhooks/endpoints'),
    retry: false,
  });

/** The deliveries, newest first, a page at a time. */
export const useWebhookDeliveries = (enabled: boolean) =>
  useInfiniteQuery({
    queryKey: deliveriesKey,
    enabled,
    retry: false,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      apiFetch<WebhookDeliveryList>(
        `webhooks/deliveries?limit=${DELIVERIES_PAGE}${
          pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''
        }`,
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

function useWebhookMutation<Variables, Result>(call: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
  });
}

export const useCreateWebhookEndpoint = () =>
  useWebhookMutation((body: CreateWebhookEndpoint) =>
    apiFetch<CreatedWebhookEndpoint>('webhooks/endpoints', { method: 'POST', body }),
  );

export const useUpdateWebhookEndpoint = () =>
  useWebhookMutation(({ id, ...body }: UpdateWebhookEndpoint & { id: string }) =>
    apiFetch<WebhookEndpoint>(`webhooks/endpoints/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      body,
    }),
  );

export const useDeleteWebhookEndpoint = () =>
  useWebhookMutation((id: string) =>
    apiFetch<void>(`webhooks/endpoints/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );

export const useResendWebhookDelivery = () =>
  useWebhookMutation((id: string) =>
    apiFetch<WebhookDelivery>(`webhooks/deliveries/${encodeURIComponent(id)}/resend`, {
      method: 'POST',
    }),
  );

export const useRollWebhookSecret = () =>
  useWebhookMutation(({ id, overlapHours }: { id: string; overlapHours: number }) =>
    apiFetch<RolledWebhookSecret>(`webhooks/endpoints/${encodeURIComponent(id)}/secret`, {
      method: 'POST',
      body: { overlapHours },
    }),
  );
