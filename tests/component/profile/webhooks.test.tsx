/**
 * The Profile page's webhooks (issue 40 §5): an Administrator adds an endpoint and sees its
 * signing secret once, reads a refusal without losing what was typed, pauses and deletes (asked
 * first), and reads the deliveries a page at a time with their last answer, resending one;
 * anyone else sees nothing of it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../src/shared/api/account';
import type { WebhookDelivery, WebhookEndpoint } from '../../../src/shared/api/webhooks';
import { renderProfile } from './renderProfile';
import { json, sentBodies } from '../renderApp';

const PROFILE: Profile = {
  email: 'avery@example.com',
  firstName: 'Avery',
  lastName: 'Stone',
  totpEnabled: false,
  passkeys: [],
};
const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuvwxyz';
const ENDPOINT: WebhookEndpoint = {
  id: 'e1',
  url: 'https://partner.example/hooks',
  description: 'Back office',
  events: ['registration.approved'],
  enabled: true,
  createdAt: '2026-11-20T09:00:00Z',
};

const delivery = (id: string, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id,
  endpointId: 'e1',
  eventId: `event-${id}`,
  eventType: 'registration.approved',
  state: 'delivered',
  nextAttemptAt: null,
  resendOf: null,
  createdAt: '2026-11-21T10:00:00Z',
  completedAt: '2026-11-21T10:00:01Z',
  attempts: [
    {
      attemptedAt: '2026-11-21T10:00:00Z',
      statusCode: 200,
      responseExcerpt: 'ok',
      error: null,
      durationMs: 40,
    },
  ],
  ...overrides,
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// The page's first draw loads its parts: on a busy machine that can outlast the usual 5 s.
const webhooksSection = async () =>
  within(
    (await screen.findByRole('heading', { name: 'Webhooks' }, { timeout: 20_000 })).closest(
      'section',
    )!,
  );

describe('webhooks on the Profile page', { timeout: 60_000 }, () => {
  it('adds an endpoint and shows its secret once; a refusal keeps what was typed', async () => {
    const user = userEvent.setup();
    let endpoints: WebhookEndpoint[] = [];
    let refuse = true;
    const fetchMock = renderProfile(PROFILE, {
      'GET webhooks/endpoints': () => json(200, { data: endpoints }),
      'GET webhooks/deliveries?limit=10': () => json(200, { data: [], nextCursor: null }),
      'POST webhooks/endpoints': () => {
        if (refuse) {
          refuse = false;
          return json(422, {
            errorMessage: 'The URL is refused: use https:// on a public address.',
            code: 'validation_failed',
          });
        }
        endpoints = [ENDPOINT];
        return json(201, { ...ENDPOINT, secret: SECRET });
      },
    });
    const section = await webhooksSection();
    expect(section.getByText('Nothing has been posted yet.')).toBeInTheDocument();
    const add = section.getByRole('button', { name: 'Add endpoint' });
    expect(add).toBeDisabled();
    await user.click(section.getByLabelText('Endpoint URL'));
    await user.paste(ENDPOINT.url);
    await user.click(section.getByLabelText('Description (optional)'));
    await user.paste('Back office');
    expect(add).toBeDisabled(); // no event chosen yet
    await user.click(section.getByRole('checkbox', { name: 'registration.approved' }));
    await user.click(add);
    expect(
      await section.findByText('The URL is refused: use https:// on a public address.'),
    ).toBeInTheDocument();
    expect(section.getByLabelText('Endpoint URL')).toHaveValue(ENDPOINT.url);
    expect(section.getByRole('checkbox', { name: 'registration.approved' })).toBeChecked();
    await user.click(add);
    expect(await section.findByDisplayValue(SECRET)).toBeInTheDocument();
    expect(section.getByText(/it is shown only this once/)).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'POST webhooks/endpoints').at(-1)).toEqual({
      url: ENDPOINT.url,
      description: 'Back office',
      events: ['registration.approved'],
    });
    expect(await section.findByText(ENDPOINT.url)).toBeInTheDocument();
    expect(section.getByLabelText('Endpoint URL')).toHaveValue('');
    await user.click(section.getByRole('button', { name: 'I have kept it' }));
    expect(section.queryByDisplayValue(SECRET)).toBeNull();
  });

  it('pauses an endpoint, and deletes one only after asking', async () => {
    const user = userEvent.setup();
    let endpoints = [ENDPOINT];
    const fetchMock = renderProfile(PROFILE, {
      'GET webhooks/endpoints': () => json(200, { data: endpoints }),
      'GET webhooks/deliveries?limit=10': () => json(200, { data: [], nextCursor: null }),
      'PATCH webhooks/endpoints/e1': (body) => {
        endpoints = [{ ...ENDPOINT, ...(body as object) }];
        return json(200, endpoints[0]);
      },
      'DELETE webhooks/endpoints/e1': () => {
        endpoints = [];
        return new Response(null, { status: 204 });
      },
    });
    const section = await webhooksSection();
    await user.click(await section.findByRole('button', { name: `Pause ${ENDPOINT.url}` }));
    expect(sentBodies(fetchMock, 'PATCH webhooks/endpoints/e1')).toEqual([{ enabled: false }]);
    expect(await section.findByText('Paused')).toBeInTheDocument();
    await user.click(section.getByRole('button', { name: `Delete ${ENDPOINT.url}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this endpoint?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBodies(fetchMock, 'DELETE webhooks/endpoints/e1')).toHaveLength(0);
    await user.click(await section.findByRole('button', { name: `Delete ${ENDPOINT.url}` }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(section.queryByText(ENDPOINT.url)).toBeNull());
    expect(sentBodies(fetchMock, 'DELETE webhooks/endpoints/e1')).toHaveLength(1);
  });

  it('replaces a signing secret after asking how long the old one signs too; the new one shown once', async () => {
    const user = userEvent.setup();
    const fetchMock = renderProfile(PROFILE, {
      'GET webhooks/endpoints': () => json(200, { data: [ENDPOINT] }),
      'GET webhooks/deliveries?limit=10': () => json(200, { data: [], nextCursor: null }),
      'POST webhooks/endpoints/e1/secret': () =>
        json(200, { ...ENDPOINT, secret: SECRET, previousSecretExpiresAt: null }),
    });
    const section = await webhooksSection();
    await user.click(
      await section.findByRole('button', { name: `Replace the secret of ${ENDPOINT.url}` }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Replace the signing secret?' });
    await user.click(within(dialog).getByRole('combobox', { name: 'The old secret signs too' }));
    await user.click(await screen.findByRole('option', { name: 'No longer: end it at once' }));
    await user.click(within(dialog).getByRole('button', { name: 'Replace secret' }));
    expect(await section.findByDisplayValue(SECRET)).toBeInTheDocument();
    expect(section.getByText(/the old one no longer signs/)).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'POST webhooks/endpoints/e1/secret')).toEqual([
      { overlapHours: 0 },
    ]);
  });

  it('lists deliveries with their last answer, older ones on request, and resends one', async () => {
    const user = userEvent.setup();
    const failed = delivery('d1', {
      state: 'pending',
      nextAttemptAt: '2026-11-21T11:00:00Z',
      completedAt: null,
      attempts: [
        {
          attemptedAt: '2026-11-21T10:00:00Z',
          statusCode: 500,
          responseExcerpt: 'oops',
          error: 'answered 500',
          durationMs: 12,
        },
      ],
    });
    const fetchMock = renderProfile(PROFILE, {
      'GET webhooks/endpoints': () => json(200, { data: [ENDPOINT] }),
      'GET webhooks/deliveries?limit=10': () => json(200, { data: [failed], nextCursor: 'next1' }),
      'GET webhooks/deliveries?limit=10&cursor=next1': () =>
        json(200, { data: [delivery('d0')], nextCursor: null }),
      'POST webhooks/deliveries/d1/resend': () =>
        json(202, delivery('d2', { state: 'pending', resendOf: 'd1', attempts: [] })),
    });
    const section = await webhooksSection();
    expect(await section.findByText('500: answered 500')).toBeInTheDocument();
    expect(section.getByText('Waiting to be tried again')).toBeInTheDocument();
    await user.click(section.getByRole('button', { name: 'Show older deliveries' }));
    expect(await section.findByText('Answered 200')).toBeInTheDocument();
    expect(section.queryByRole('button', { name: 'Show older deliveries' })).toBeNull();
    const [resendFirst] = section.getAllByRole('button', {
      name: /^Resend registration\.approved/,
    });
    await user.click(resendFirst!);
    await waitFor(() =>
      expect(sentBodies(fetchMock, 'POST webhooks/deliveries/d1/resend')).toHaveLength(1),
    );
  });

  it('is not shown to anyone the server refuses (403)', async () => {
    const fetchMock = renderProfile(PROFILE, {
      'GET webhooks/endpoints': () =>
        json(403, { errorMessage: 'Only an Administrator may.', code: 'forbidden' }),
    });
    expect(await screen.findByRole('heading', { name: 'Active sessions' })).toBeInTheDocument();
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([input]) => String(input).endsWith('/webhooks/endpoints')),
      ).toBe(true),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Webhooks' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).toBeNull();
  });
});
