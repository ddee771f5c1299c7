import { DEMO_SIGN_INS } from '../../src/server/seed/demoSignIns';
import { expect, test } from './support';

const [approved] = DEMO_SIGN_INS;

test('the live panel on home shows the best bid and ask and trades arriving', async ({ page }) => {
  await page.goto('/clearing/signin');
  await page.getByLabel('Email').fill(approved.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(approved.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/clearing\/home/);

  const panel = page.getByRole('region', { name: 'Live market' });
  await expect(panel.getByRole('status')).toHaveText('Live');

  // The book snapshot fills best bid and ask: a price, then its quantity in brackets.
  const btc = panel.getByRole('table', { name: 'Best bid and ask' }).getByRole('row', {
    name: /Bitcoin Futures BTC-FUT/,
  });
  await expect(btc.getByRole('cell').nth(0)).toHaveText(/^[\d,]+ \([\d,]+\)$/);
  await expect(btc.getByRole('cell').nth(1)).toHaveText(/^[\d,]+ \([\d,]+\)$/);

  // Trades arrive: a first row appears, then a newer one replaces it at the top.
  const tradeRows = panel
    .locator('table[aria-label^="Recent trades"] tbody tr')
    .filter({ hasNotText: 'No trades yet.' });
  await expect(tradeRows.first()).toBeVisible({ timeout: 20_000 });
  await expect(tradeRows.first()).toContainText(/\d{2}:\d{2}:\d{2}/);
  const count = await tradeRows.count();
  const firstSeen = await tradeRows.allTextContents();
  await expect
    .poll(
      async () => {
        const now = await tradeRows.allTextContents();
        return now.length > count || now.join('|') !== firstSeen.join('|');
      },
      { timeout: 20_000 },
    )
    .toBe(true);
});
