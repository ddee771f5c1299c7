import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { firm } from '../../src/shared/config/firm';
import { DesktopOnlyNotice } from '../../src/web/app/DesktopOnlyNotice';
import { currentUserHandler, makeUser, mockApi, renderApp } from './renderApp';

const NOTICE = 'This app is available only on desktop. Please log in on another device.';

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

describe('DesktopOnlyNotice', () => {
  afterEach(() => setWidth(1024));

  it('shows below 991 px and hides at 1280 px', () => {
    setWidth(990);
    render(<DesktopOnlyNotice />);
    expect(screen.getByText(NOTICE)).toBeInTheDocument();
    act(() => setWidth(1280));
    expect(screen.queryByText(NOTICE)).not.toBeInTheDocument();
    act(() => setWidth(991));
    expect(screen.queryByText(NOTICE)).not.toBeInTheDocument();
  });
});

describe('Layout', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('has header, main and footer landmarks, the brand and the header links', async () => {
    mockApi({ 'GET user': currentUserHandler(null) });
    renderApp('/clearing/regulation/disclosures');
    const banner = await screen.findByRole('banner');
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: firm.displayName })).toBeInTheDocument();
    const expected = {
      Products: '/exchange/products/',
      About: '/about',
      Docs: '/exchange/docs/',
      Help: '/help',
    };
    const nav = within(banner).getByRole('navigation', { name: 'Main' });
    for (const [name, href] of Object.entries(expected)) {
      expect(within(nav).getByRole('link', { name })).toHaveAttribute('href', href);
    }
    const legal = within(banner).getByRole('navigation', { name: 'Legal' });
    expect(within(legal).getByRole('link', { name: 'Disclosures' })).toHaveAttribute(
      'href',
      '/disclosures',
    );
    expect(within(legal).getByRole('link', { name: 'Regulatory Disclosures' })).toHaveAttribute(
      'href',
      '/clearing/regulation/disclosures',
    );
    expect(within(banner).getByRole('link', { name: 'Sign In' })).toHaveAttribute(
      'href',
      '/clearing/signin',
    );
    expect(banner).toHaveAttribute('data-variant', 'light');
    // The page loads lazily and sets the title once it renders.
    await waitFor(() =>
      expect(document.title).toBe(`Regulatory Disclosures | ${firm.displayName}`),
    );
  });

  it('starts with a skip link that moves focus past the header to the page', async () => {
    mockApi({ 'GET user': currentUserHandler(null) });
    renderApp('/clearing/regulation/disclosures');
    await screen.findByRole('banner');
    await waitFor(() =>
      expect(document.title).toBe(`Regulatory Disclosures | ${firm.displayName}`),
    );
    const user = userEvent.setup();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
    // The next Tab reaches the page's content, not the header's links.
    await user.tab();
    const main = screen.getByRole('main');
    expect(document.activeElement).not.toBe(main);
    expect(main.contains(document.activeElement)).toBe(true);
  });

  it('has every footer link of business §2.6', async () => {
    mockApi({ 'GET user': currentUserHandler(null) });
    renderApp('/clearing/regulation/disclosures');
    const footer = await screen.findByRole('contentinfo');
    const hrefs = within(footer)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
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
      expect(hrefs).toContain(href);
    }
    expect(hrefs.filter((href) => href?.startsWith('/exchange/products/'))).toHaveLength(5);
  });

  it('uses the dark header without a Sign In button on the sign-in page', async () => {
    mockApi({ 'GET user': currentUserHandler(null) });
    renderApp('/clearing/signin');
    const banner = await screen.findByRole('banner');
    await screen.findByRole('heading', { name: 'Sign In' });
    expect(banner).toHaveAttribute('data-variant', 'dark');
    expect(within(banner).queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
  });

  it('gives a signed-in user Signout and a profile menu with Profile and Logout', async () => {
    mockApi({ 'GET user': currentUserHandler(makeUser()) });
    renderApp('/clearing/home');
    await screen.findByRole('heading', { name: 'Welcome Avery!' });
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Signout' })).toHaveAttribute(
      'href',
      '/clearing/logout',
    );
    expect(within(banner).queryByRole('link', { name: 'Admin Site' })).not.toBeInTheDocument();
    await userEvent.click(within(banner).getByRole('button', { name: 'Profile menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Profile' })).toHaveAttribute(
      'href',
      '/exchange/dashboard/profile',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toHaveAttribute(
      'href',
      '/clearing/logout',
    );
    expect(within(menu).queryByRole('menuitem', { name: 'Clearing Admin' })).toBeNull();
  });

  it('shows staff the Admin Site link and the Clearing Admin item', async () => {
    mockApi({ 'GET user': currentUserHandler(makeUser({ isNorthstarClearingStaff: true })) });
    renderApp('/clearing/home');
    await screen.findByRole('heading', { name: 'Welcome Avery!' });
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Admin Site' })).toHaveAttribute(
      'href',
      '/clearing/admin',
    );
    await userEvent.click(within(banner).getByRole('button', { name: 'Profile menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Clearing Admin' })).toHaveAttribute(
      'href',
      '/clearing/admin',
    );
  });

  it('hides the Profile item on dark pages (registration)', async () => {
    mockApi({
      'GET user': currentUserHandler(makeUser({ details: null, orgDetails: null })),
    });
    renderApp('/clearing/registration');
    await screen.findByRole('button', { name: 'Get Started' });
    const banner = screen.getByRole('banner');
    expect(banner).toHaveAttribute('data-variant', 'dark');
    await userEvent.click(within(banner).getByRole('button', { name: 'Profile menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Profile' })).toBeNull();
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
  });
});

describe('HomePage banners', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells a user awaiting review that the application was received', async () => {
    const pending = makeUser();
    pending.details = { ...pending.details!, approved: false };
    mockApi({ 'GET user': currentUserHandler(pending) });
    renderApp('/clearing/home');
    expect(await screen.findByRole('heading', { name: 'Welcome Avery!' })).toBeInTheDocument();
    expect(screen.getByText(/application has been received/)).toBeInTheDocument();
    expect(screen.queryByText(/has been approved/)).not.toBeInTheDocument();
  });

  it('tells an approved user that the application has been approved', async () => {
    mockApi({ 'GET user': currentUserHandler(makeUser()) });
    renderApp('/clearing/home');
    expect(await screen.findByText('Your application has been approved.')).toBeInTheDocument();
  });
});
