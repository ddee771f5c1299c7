import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { ApiError, GENERIC_FAILURE_MESSAGE, redirectToSignIn } from '../../api/client';
import { isChunkLoadError } from '../../app/LazyPart';
import { PageTitle } from '../../app/PageTitle';
import { SupportContact } from '../../app/SupportContact';

/** The generic error page (business §2.7). */
export function ErrorPage({ incidentId }: { incidentId?: string | undefined }) {
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', my: 8, px: 3, textAlign: 'center' }}>
      <PageTitle title="Something went wrong" />
      <Typography variant="h1" gutterBottom>
        {GENERIC_FAILURE_MESSAGE}
      </Typography>
      {incidentId && (
        <Typography sx={{ mb: 2 }}>
          IncidentId:{' '}
          <Box component="code" sx={{ fontWeight: 600 }}>
            {incidentId}
          </Box>
        </Typography>
      )}
      <Typography sx={{ mb: 3 }}>
        If the problem persists, contact support at <SupportContact />.
      </Typography>
      {/* A full page load, so whatever broke starts afresh. */}
      <Button variant="contained" href="/clearing/home">
        Return Home
      </Button>
    </Box>
  );
}

const PAGE_NOT_LOADED_TITLE = 'This page could not be loaded';
const PAGE_NOT_LOADED_MESSAGE = 'Check your internet connection, then try again.';

/**
 * A page whose code could not be fetched (the connection dropped on the way to it): said as
 * what it is, with Try again, rather than as the generic failure (issue 38 §2).
 */
function PageNotLoaded() {
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', my: 8, px: 3, textAlign: 'center' }}>
      <PageTitle title={PAGE_NOT_LOADED_TITLE} />
      <Typography variant="h1" gutterBottom>
        {PAGE_NOT_LOADED_TITLE}
      </Typography>
      <Typography sx={{ mb: 3 }}>{PAGE_NOT_LOADED_MESSAGE}</Typography>
      <Button variant="contained" onClick={() => window.location.reload()}>
        Try again
      </Button>
    </Box>
  );
}

/**
 * The router's error boundary: shows the error page, or goes to sign-in on a 401. `standalone`
 * when it replaces the whole layout (so it brings its own main landmark).
 */
export function RouteErrorPage({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const unauthenticated =
    (error instanceof ApiError && error.status === 401) ||
    (isRouteErrorResponse(error) && error.status === 401);
  useEffect(() => {
    if (unauthenticated) redirectToSignIn();
    else console.error(error);
  }, [error, unauthenticated]);
  const incidentId = error instanceof ApiError ? error.incidentId : undefined;
  const page = isChunkLoadError(error) ? <PageNotLoaded /> : <ErrorPage incidentId={incidentId} />;
  if (!standalone) return page;
  return <Box component="main">{page}</Box>;
}
