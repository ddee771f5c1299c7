/**
 * The profile page's own entry (a second page of the Vite build, served by the standalone server
 * at /exchange/dashboard/profile): outside /clearing, so the customer app's router never sees it
 * and the full page load the specification asks for the Profile link is real.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient } from '@tanstack/react-query';
import { AppProviders } from './app/AppProviders';
import { ProfilePage } from './pages/profile/ProfilePage';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from profile.html');
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <ProfilePage />
    </AppProviders>
  </StrictMode>,
);
