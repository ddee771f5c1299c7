import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { confirmEmail, useProfile } from '../../api/account';
import { errorMessageOf } from '../../api/client';
import { useCurrentUser } from '../../api/get-current-user';
import { Header } from '../../app/Header';
import { PageFrame } from '../../app/PageFrame';
import { ApiCredentialsSection } from './ApiCredentialsSection';
import { EmailSection } from './EmailSection';
import { PasswordSection } from './PasswordSection';
import { SessionsSection } from './SessionsSection';
import { WebhooksSection } from './WebhooksSection';
import { TwoFactorSection } from './TwoFactorSection';

/**
 * The profile page the header's Profile link opens (/exchange/dashboard/profile, outside
 * /clearing: a page of its own, reached by a full page load). Name and email, password,
 * two-factor authentication, active sessions. Signed out, the first call sends the browser to
 * the sign-in, which brings it back here.
 */
export function ProfilePage() {
  // A link mailed to a new address lands here with its token: confirmed first (it needs no
  // session), then the token leaves the address bar, then the profile loads as usual.
  const [emailToken] = useState(() =>
    new URLSearchParams(window.location.search).get('access_token'),
  );
  const confirmation = useQuery({
    queryKey: ['confirm-email', emailToken],
    queryFn: () => confirmEmail(emailToken!),
    enabled: emailToken !== null,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (emailToken) window.history.replaceState(null, '', window.location.pathname);
  }, [emailToken]);
  if (emailToken && confirmation.isPending) return <CircularProgress aria-label="Confirming" />;
  return (
    <ProfileLayout
      notice={
        confirmation.isSuccess ? (
          <Alert severity="success" sx={{ mb: 2 }}>
            Your sign-in email is now {confirmation.data.email}.
          </Alert>
        ) : confirmation.isError ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorMessageOf(confirmation.error)}
          </Alert>
        ) : null
      }
    />
  );
}

function ProfileLayout({ notice }: { notice: ReactNode }) {
  const profile = useProfile();
  const { data: user } = useCurrentUser();
  return (
    // The app's frame with its light header (access §2: the dark one is for registration and the
    // signed-out pages), outside the app's router: its links load their pages in full.
    <PageFrame header={<Header user={user ?? null} />}>
      <Box sx={{ px: { xs: 2, sm: 3 }, py: 4, maxWidth: 1000, width: '100%', mx: 'auto' }}>
        <Link href="/clearing/home" sx={{ display: 'inline-block', mb: 2 }}>
          Back to clearing
        </Link>
        <Typography variant="h1" gutterBottom>
          Profile
        </Typography>
        {notice}
        {profile.isPending ? (
          <CircularProgress aria-label="Loading your profile" />
        ) : profile.isError ? (
          <Alert severity="error">{errorMessageOf(profile.error)}</Alert>
        ) : (
          <Paper
            variant="outlined"
            sx={{
              p: { xs: 2, sm: 3 },
              display: 'grid',
              gridTemplateColumns: 'minmax(0, 1fr)',
              gap: 3,
            }}
          >
            <Box component="section" aria-labelledby="details-heading">
              <Typography variant="h2" id="details-heading" gutterBottom>
                Your details
              </Typography>
              <Box
                component="dl"
                sx={{
                  display: 'grid',
                  gridTemplateColumns: 'max-content minmax(0, 1fr)',
                  '& dd': { overflowWrap: 'anywhere' },
                  columnGap: 3,
                  rowGap: 1,
                  m: 0,
                }}
              >
                <Typography component="dt" color="text.secondary">
                  Name
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  {[profile.data.firstName, profile.data.lastName].filter(Boolean).join(' ') ||
                    'Not given yet (your registration asks for it)'}
                </Typography>
                <Typography component="dt" color="text.secondary">
                  Email
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  {profile.data.email}
                </Typography>
              </Box>
              <EmailSection email={profile.data.email} />
            </Box>
            <Divider />
            <PasswordSection
              account={{
                email: profile.data.email,
                firstName: profile.data.firstName ?? undefined,
                lastName: profile.data.lastName ?? undefined,
              }}
            />
            <Divider />
            <TwoFactorSection profile={profile.data} />
            <Divider />
            <SessionsSection email={profile.data.email} />
            <ApiCredentialsSection email={profile.data.email} />
            <WebhooksSection />
          </Paper>
        )}
      </Box>
    </PageFrame>
  );
}
