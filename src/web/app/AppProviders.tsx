import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { EsignConsentProvider } from '../forms/esignConsent/EsignConsentProvider';
import { SessionRenewalHost } from './SessionRenewalHost';
import { theme } from './theme';

/**
 * React Query, the MUI theme, the e-sign consent asked before the first signature and the
 * sign-in asked in place when a background call meets an expired session; tests wrap pages in
 * the same providers.
 */
export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <EsignConsentProvider>{children}</EsignConsentProvider>
        <SessionRenewalHost />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
