/**
 * The Profile page's frame (issue 38 §3, §4): the app's light header (access §2: the dark one
 * is for registration and the signed-out pages), whose links load the app's pages in full since
 * Profile lives outside its router; and its sessions table, whose dates and Sign out stay on one
 * line and which scrolls inside itself, as a focusable region, once wider than the screen.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile, SessionList } from '../../../src/shared/api/account';
import { firm } from '../../../src/shared/config/firm';
import { sideScrollName } from '../../../src/web/app/useSideScroll';
import { currentUserHandler, json, makeUser } from '../renderApp';
import { renderProfile } from './renderProfile';

const PROFILE: Profile = {
  email: 'avery@example.com',
  firstName: 'Avery',
  lastName: 'Stone',
  totpEnabled: false,
  passkeys: [],
};
const SESSIONS: SessionList = {
  sessions: [
    {
      id: 's1',
      current: true,
      device: 'Chrome 131 on Linux',
      place: 'This computer',
      signedInAt: '2026-11-25T16:05:00Z',
      lastSeenAt: '2026-11-25T16:05:00Z',
    },
    {
      id: 's2',
      current: false,
      device: 'Firefox 133 on Windows',
      place: 'Chicago, United States (203.0.113.7)',
      signedInAt: '2026-11-20T09:00:00Z',
      lastSeenAt: '2026-11-24T18:30:00Z',
    },
  ],
  placesAttribution: null,
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderProfileFrame() {
  renderProfile(PROFILE, {
    'GET user': currentUserHandler(makeUser({ email: PROFILE.email })),
    'GET user/sessions': () => json(200, SESSIONS),
  });
}

describe('the Profile page’s frame', () => {
  it('draws the light header, header links to the app as full page loads, and the footer', async () => {
    renderProfileFrame();
    const banner = await screen.findByRole('banner');
    expect(banner).toHaveAttribute('data-variant', 'light');
    expect(within(banner).getByRole('link', { name: firm.displayName })).toHaveAttribute(
      'href',
      '/clearing/',
    );
    expect(within(banner).getByRole('link', { name: 'Regulatory Disclosures' })).toHaveAttribute(
      'href',
      '/clearing/regulation/disclosures',
    );
    expect(within(banner).getByRole('link', { name: 'Help' })).toBeInTheDocument();
    expect(await within(banner).findByRole('link', { name: 'Signout' })).toHaveAttribute(
      'href',
      '/clearing/logout',
    );
    expect(screen.getByRole('main')).toContainElement(
      screen.getByRole('heading', { level: 1, name: 'Profile' }),
    );
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    await userEvent.click(await within(banner).findByRole('button', { name: 'Profile menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Profile' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toHaveAttribute(
      'href',
      '/clearing/logout',
    );
  });

  it('keeps the sessions’ dates and Sign out on one line', async () => {
    renderProfileFrame();
    const table = await screen.findByRole('table', { name: 'Active sessions' });
    const other = await within(table).findByRole('row', { name: /Firefox 133/ });
    const cells = within(other).getAllByRole('cell');
    // Signed in, Last seen, the Sign out button's cell: whole; the device and place may wrap.
    for (const cell of cells.slice(2)) expect(getComputedStyle(cell).whiteSpace).toBe('nowrap');
    expect(getComputedStyle(cells[1]!).whiteSpace).not.toBe('nowrap');
  });

  it('scrolls the sessions table inside a focusable region once it is wider than its frame', async () => {
    // jsdom lays nothing out: the frame reports a table 600 px wide in 350 px.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly changed: () => void) {}
        observe() {
          this.changed();
        }
        disconnect() {}
      },
    );
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (
      this: HTMLElement,
    ) {
      return this.querySelector('table') ? 600 : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(350);
    renderProfileFrame();
    const table = await screen.findByRole('table', { name: 'Active sessions' });
    const region = screen.getByRole('region', { name: sideScrollName('Active sessions') });
    expect(region).toContainElement(table);
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toHaveStyle({ overflowX: 'auto' });
  });

  it('adds no tab stop while the sessions table fits', async () => {
    renderProfileFrame();
    const table = await screen.findByRole('table', { name: 'Active sessions' });
    expect(screen.queryByRole('region', { name: sideScrollName('Active sessions') })).toBeNull();
    expect(table.parentElement).not.toHaveAttribute('tabindex');
  });
});
