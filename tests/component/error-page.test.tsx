import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { firm } from '../../src/shared/config/firm';
import { ApiError, browserLocation } from '../../src/web/api/client';
import { ErrorPage, RouteErrorPage } from '../../src/web/pages/errors/ErrorPage';

function renderThrowing(error: unknown) {
  const Boom = () => {
    throw error;
  };
  const router = createMemoryRouter(
    [{ path: '/', element: <Boom />, errorElement: <RouteErrorPage standalone /> }],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
}

describe('ErrorPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the message, Return Home and the support contact, without an incident', () => {
    const router = createMemoryRouter([{ path: '/', element: <ErrorPage /> }]);
    render(<RouterProvider router={router} />);
    expect(
      screen.getByRole('heading', {
        name: 'Our website is having some issues. Please try again later.',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute(
      'href',
      '/clearing/home',
    );
    expect(screen.getByRole('link', { name: firm.supportEmail })).toBeInTheDocument();
    expect(screen.queryByText(/IncidentId/)).not.toBeInTheDocument();
  });

  it('is the error boundary and shows the IncidentId of a failed call', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderThrowing(new ApiError(500, { errorMessage: 'Internal error', incidentId: 'INC-42' }));
    expect(await screen.findByText(/IncidentId/)).toHaveTextContent('IncidentId: INC-42');
    expect(screen.getByRole('main')).toBeInTheDocument();
  });

  it('sends a 401 to the exchange sign-in instead', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    renderThrowing(new ApiError(401, { errorMessage: 'Not signed in.' }));
    await screen.findByRole('link', { name: 'Return Home' });
    expect(assign).toHaveBeenCalledWith(expect.stringMatching(/^\/exchange\/dashboard\/signin\?/));
  });
});

describe('a page whose code could not be fetched', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says the page could not be loaded and offers Try again (issue 38 §2)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderThrowing(
      new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/Home.js'),
    );
    expect(
      await screen.findByRole('heading', { name: 'This page could not be loaded' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Check your internet connection, then try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByText(/Our website is having some issues/)).toBeNull();
  });
});
