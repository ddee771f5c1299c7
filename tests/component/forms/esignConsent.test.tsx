/**
 * The e-sign consent (ESIGN 7001(c)) asked before the first electronic signature: the dialog
 * drawn from schemas/common/esign-consent.json, stored through POST esign-consent; Cancel signs
 * nothing; asked no more once given; usable from the keyboard; no axe violation.
 */
import fs from 'node:fs';
import { screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { esignConsentText } from '../../../src/shared/forms/model/esignConsent';
import { EsignConsentProvider } from '../../../src/web/forms/esignConsent/EsignConsentProvider';
import { json, mockApi, sentBodies } from '../renderApp';
import { renderForm } from './helpers';
import { schema } from './testForm';

const text = esignConsentText(
  JSON.parse(fs.readFileSync('schemas/common/esign-consent.json', 'utf8')),
);
const VERSION = 'a'.repeat(64);
const DOCUMENT = '/assets/pdfs/e-sign-consent.pdf';
const title = (key: string) => (schema.properties![key] as { title: string }).title;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const row = (key: string) => screen.getByRole('group', { name: new RegExp(escape(title(key))) });
const signButton = (key: string) =>
  within(row(key)).getByRole('button', { name: 'Electronically Sign' });

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The server: no consent until POST esign-consent gives it (or `given` from the start). */
function consentServer({ given = false } = {}) {
  let consent = given ? { id: 'c-1', givenAt: '2026-11-25T19:00:00.000Z' } : null;
  return mockApi({
    'GET esign-consent': () => json(200, { version: VERSION, document: DOCUMENT, consent }),
    'POST esign-consent': () => {
      consent = { id: 'c-1', givenAt: '2026-11-25T19:00:00.000Z' };
      return json(201, { version: VERSION, document: DOCUMENT, consent });
    },
  });
}

function renderWithConsent() {
  const queryClient = new QueryClient();
  return renderForm({}, {}, (children) => (
    <QueryClientProvider client={queryClient}>
      <EsignConsentProvider>{children}</EsignConsentProvider>
    </QueryClientProvider>
  ));
}

describe('the e-sign consent before the first signature', { timeout: 30_000 }, () => {
  it('shows every disclosure and the PDF, stores the consent, then signs; the next signature asks nothing', async () => {
    const fetchMock = consentServer();
    const { user, answers } = renderWithConsent();
    await user.click(signButton('agreeTermsOfService'));

    const dialog = await screen.findByRole('dialog', { name: text.title });
    for (const section of Object.values(text.sections)) {
      expect(within(dialog).getByRole('heading', { name: section.heading })).toBeVisible();
      expect(within(dialog).getByText(section.text)).toBeVisible();
    }
    expect(within(dialog).getByRole('link', { name: text.documentLabel })).toHaveAttribute(
      'href',
      DOCUMENT,
    );
    expect(answers.current.agreeTermsOfService).not.toBe(true);

    // The button alone does not consent: the tick is asked for, and nothing is stored.
    await user.click(within(dialog).getByRole('button', { name: text.acceptLabel }));
    const tick = within(dialog).getByRole('checkbox', { name: text.confirmLabel });
    expect(tick).toHaveAccessibleDescription(text.confirmRequiredMessage);
    expect(sentBodies(fetchMock, 'POST esign-consent')).toEqual([]);

    await user.click(tick);
    await user.click(within(dialog).getByRole('button', { name: text.acceptLabel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBodies(fetchMock, 'POST esign-consent')).toEqual([{ version: VERSION }]);
    await waitFor(() => expect(answers.current.agreeTermsOfService).toBe(true));

    const calls = fetchMock.mock.calls.length;
    await user.click(signButton('agreeRiskDisclosures'));
    await waitFor(() => expect(answers.current.agreeRiskDisclosures).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock.mock.calls.length).toBe(calls);
  });

  it('Cancel signs nothing and stores nothing; the next signature asks again', async () => {
    const fetchMock = consentServer();
    const { user, answers } = renderWithConsent();
    await user.click(signButton('agreeTermsOfService'));
    const dialog = await screen.findByRole('dialog', { name: text.title });
    await user.click(within(dialog).getByRole('checkbox', { name: text.confirmLabel }));
    await user.click(within(dialog).getByRole('button', { name: text.cancelLabel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(answers.current.agreeTermsOfService).not.toBe(true);
    expect(signButton('agreeTermsOfService')).toBeVisible();
    expect(sentBodies(fetchMock, 'POST esign-consent')).toEqual([]);

    await user.click(signButton('agreeTermsOfService'));
    expect(await screen.findByRole('dialog', { name: text.title })).toBeVisible();
  });

  it('asks nothing when the server already holds the consent to this version', async () => {
    consentServer({ given: true });
    const { user, answers } = renderWithConsent();
    await user.click(signButton('agreeTermsOfService'));
    await waitFor(() => expect(answers.current.agreeTermsOfService).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('works from the keyboard, gives focus back to the agreement, and has no axe violation', async () => {
    consentServer();
    const { user, answers } = renderWithConsent();
    signButton('agreeTermsOfService').focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: text.title });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    const { default: axe } = await import('axe-core');
    const results = await axe.run(dialog, { rules: { 'color-contrast': { enabled: false } } });
    expect(
      results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);

    const tick = within(dialog).getByRole('checkbox', { name: text.confirmLabel });
    while (document.activeElement !== tick) await user.tab();
    await user.keyboard(' ');
    expect(tick).toBeChecked();
    await user.tab(); // Cancel
    await user.tab(); // the consent button
    expect(document.activeElement).toHaveAccessibleName(text.acceptLabel);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(answers.current.agreeTermsOfService).toBe(true));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(
        within(row('agreeTermsOfService')).getByRole('button', { name: 'Remove Signature' }),
      ).toHaveFocus(),
    );
  });
});
