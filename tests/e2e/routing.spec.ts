import { type Page } from '@playwright/test';
import { DEMO_SIGN_INS } from '../../src/server/seed/demoSignIns';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './support';

const [approved, pending] = DEMO_SIGN_INS;

/** Signs in and waits to leave the sign-in page. */
async function signedIn(page: Page, email: string, password: string) {
  await signIn(page, email, password);
  await expect(page).not.toHaveURL(/\/signin/);
}

test.describe('routing table, signed out', () => {
  for (const path of [
    '/clearing/home',
    '/clearing/registration',
    '/clearing/registration/individual',
  ]) {
    test(`${path} sends to sign-in with the message`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/clearing\/signin/);
      await expect(page.getByText('Please sign in to view that content.')).toBeVisible();
    });
  }

  test('/clearing and /clearing/signup show the sign-up page', async ({ page }) => {
    for (const path of ['/clearing', '/clearing/signup']) {
      await page.goto(path);
      await expect(page.getByRole('button', { name: 'Sign Up', exact: true })).toBeVisible();
    }
  });

  test('the sign-in page has no Sign In button in the top bar and a dark header', async ({
    page,
  }) => {
    await page.goto('/clearing/signin');
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toHaveCount(1);
    await expect(page.locator('[data-variant="dark"]').first()).toBeVisible();
    await expect(page.getByRole('link', { name: /exchange/i }).first()).toHaveAttribute(
      'href',
      '/exchange/dashboard/signin',
    );
    await expectNoSeriousA11yViolations(page);
  });

  test('disclosures are public', async ({ page }) => {
    await page.goto('/clearing/regulation/disclosures');
    await expect(page).toHaveURL(/\/clearing\/regulation\/disclosures$/);
  });

  test('an unknown address gets the not-found page with 404 and a way home; /fcm/* goes home', async ({
    page,
  }) => {
    // Issue 38 §4: in the portal's layout under /clearing, a plain page outside it.
    for (const path of ['/clearing/no-such-page', '/clearing/registration/nonexistent-form']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
    await expectNoSeriousA11yViolations(page);
    const outside = await page.goto('/nonexistent-top');
    expect(outside?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the clearing portal' }).click();
    await expect(page).toHaveURL(/\/clearing\/(home|signin)/);
    await page.goto('/fcm/anything');
    await expect(page).toHaveURL(/\/clearing\/(home|signin)/);
  });

  test('a 401 target /exchange/dashboard/signin lands on sign-in with its message', async ({
    page,
  }) => {
    const message = "You've been redirected due to being unauthenticated. Please sign in again.";
    await page.goto(
      '/exchange/dashboard/signin?redirect=%2Fclearing%2Fhome&notice=unauthenticated',
    );
    await expect(page).toHaveURL(/\/clearing\/signin/);
    await expect(page.getByText(message)).toBeVisible();
  });

  test('signed-out pages log no failed request in the console', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    for (const path of ['/clearing/signin', '/clearing', '/clearing/regulation/disclosures']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    expect(errors).toEqual([]);
  });

  test('the sign-in toast shows no text from the address bar', async ({ page }) => {
    const planted = 'Your account is locked. Call +1 900 555 0100';
    await page.goto(`/clearing/signin?message=${encodeURIComponent(planted)}`);
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    await page.goto(`/clearing/signin?notice=${encodeURIComponent(planted)}`);
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByText(planted)).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('footer carries every link on every page', async ({ page }) => {
    await page.goto('/clearing/signin');
    const footer = page.getByRole('contentinfo');
    for (const href of [
      '/',
      '/about',
      '/help',
      '/news',
      '/jobs',
      '/disclosures',
      '/privacy',
      '/terms',
      '/exchange/',
      '/exchange/docs/',
      '/exchange/regulation/',
      '/clearing/',
      '/clearing/regulation/disclosures/',
    ]) {
      await expect(footer.locator(`a[href="${href}"]`).first()).toBeAttached();
    }
    await expect(footer.locator('a[href^="/exchange/products/"]')).toHaveCount(5);
  });
});

test.describe('routing table, signed in', () => {
  test('a user with details: registration → home, /clearing → home, signed-out pages → /clearing → home, an unknown address → not found', async ({
    page,
  }) => {
    await signedIn(page, approved.email, approved.password);
    await page.goto('/clearing/registration');
    await expect(page).toHaveURL(/\/clearing\/home$/);
    await page.goto('/clearing');
    await expect(page).toHaveURL(/\/clearing\/home$/);
    await page.goto('/clearing/signup');
    await expect(page).toHaveURL(/\/clearing\/home$/);
    await page.goto('/clearing/nothing-here');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Signout' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/clearing\/home$/);
  });

  test('profile menu: Profile and Logout for a customer, no Clearing Admin', async ({ page }) => {
    await signedIn(page, pending.email, pending.password);
    await expect(page).toHaveURL(/\/clearing\/home$/);
    // Opened once home is drawn (see profile.spec.ts: the menu closes when its page changes).
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Clearing Admin' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Admin Site' })).toHaveCount(0);
  });

  test('/clearing/admin/* is a full-page load of the server staff console', async ({ page }) => {
    await signedIn(page, pending.email, pending.password);
    const response = await page.goto('/clearing/admin/anything');
    expect(response?.status()).toBe(403);
  });
});

test('the desktop-only notice shows at 900 px and not at 1280 px', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 800 });
  await page.goto('/clearing/signin');
  const notice = page.getByText(/available only on desktop/i);
  await expect(notice).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(notice).toBeHidden();
});
