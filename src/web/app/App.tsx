/** The customer app: providers around the browser router (basename /clearing). */
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createQueryClient } from '../api/query-client';
import { AppProviders } from './AppProviders';
import { ROUTER_BASENAME, routes } from './routes';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createBrowserRouter(routes, { basename: ROUTER_BASENAME }));
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
