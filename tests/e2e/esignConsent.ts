import fs from 'node:fs';
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { esignConsentText } from '../../src/shared/forms/model/esignConsent';

/** The consent dialog's words, as compliance staff keep them. */
export const consentText = esignConsentText(
  JSON.parse(fs.readFileSync('schemas/common/esign-consent.json', 'utf8')),
);

/** Ticks "I consent…" in the open e-sign consent dialog and confirms it, from the keyboard. */
export async function consentInDialog(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: consentText.title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('checkbox', { name: consentText.confirmLabel }).check();
  await dialog.getByRole('button', { name: consentText.acceptLabel }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Signs `count` agreements with the keyboard (focus 'Electronically Sign', press Enter); the
 * first signature of an applicant who has not consented yet asks for the e-sign consent, given
 * in its dialog.
 */
export async function signAgreements(
  page: Page,
  count: number,
  { consented = false }: { consented?: boolean } = {},
): Promise<void> {
  const signButtons = page.getByRole('button', { name: 'Electronically Sign' });
  await expect(signButtons).toHaveCount(count);
  for (let i = 0; i < count; i++) {
    await signButtons.first().focus();
    await page.keyboard.press('Enter');
    if (i === 0 && !consented) await consentInDialog(page);
    await expect(signButtons).toHaveCount(count - i - 1);
  }
}

/** Gives the e-sign consent through the API, as the dialog does (for tests that submit by API). */
export async function giveConsentByApi(
  request: APIRequestContext,
  context: BrowserContext,
): Promise<void> {
  const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrf_token');
  expect(csrf, 'csrf_token cookie').toBeTruthy();
  const state = await request.get('/exchange/api/web/esign-consent');
  expect(state.status()).toBe(200);
  const { version } = (await state.json()) as { version: string };
  const given = await request.post('/exchange/api/web/esign-consent', {
    headers: { 'x-csrf-token': csrf!.value },
    data: { version },
  });
  expect(given.status(), await given.text()).toBe(201);
}
