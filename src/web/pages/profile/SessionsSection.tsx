import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useEndOtherSessions, useEndSession, useSessions } from '../../api/account';
import { errorMessageOf } from '../../api/client';
import { useSideScroll } from '../../app/useSideScroll';
import { visuallyHidden } from '../../app/theme';
import { ConfirmIdentityDialog } from './ConfirmIdentityDialog';
import { formatMoment } from './formatMoment';

/** Dates and the Sign out button stay on one line; the device and the place wrap instead. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

type Ending = { action: string; run: (password: string) => Promise<unknown> } | null;

/**
 * Active sessions: each browser signed in to the account, what it is, where it signed in from (as
 * honestly as the portal knows: this computer, the local network, an approximate place with the
 * address, or the address) and when it was last seen; any other one can be signed out, or all of
 * them at once. A footnote says places are approximate and credits the IP data where its licence
 * asks (DB-IP's CC BY 4.0).
 */
export function SessionsSection({ email }: { email: string }) {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((session) => !session.current).length;
  const failure = sessions.error;
  // Ending sessions asks for the password again (ASVS 7.5.2).
  const [ending, setEnding] = useState<Ending>(null);
  // On a phone the table scrolls sideways in its place; the page keeps the screen's width.
  const { ref, regionProps } = useSideScroll<HTMLDivElement>('Active sessions');
  return (
    <Box component="section" aria-labelledby="sessions-heading">
      <Typography variant="h2" id="sessions-heading" gutterBottom>
        Active sessions
      </Typography>
      <Box ref={ref} {...regionProps} sx={{ maxWidth: 900, overflowX: 'auto' }}>
        <Table size="small" aria-labelledby="sessions-heading">
          <TableHead>
            <TableRow>
              <TableCell>Device</TableCell>
              <TableCell>Signed in from</TableCell>
              <TableCell>Signed in</TableCell>
              <TableCell>Last seen</TableCell>
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  Action
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.map((session) => (
              <TableRow key={session.id}>
                <TableCell>
                  {session.device}{' '}
                  {session.current ? (
                    <Chip size="small" color="primary" label="This browser" />
                  ) : null}
                </TableCell>
                <TableCell>{session.place}</TableCell>
                <TableCell sx={NO_WRAP}>{formatMoment(session.signedInAt)}</TableCell>
                <TableCell sx={NO_WRAP}>
                  {session.current ? 'Now' : formatMoment(session.lastSeenAt)}
                </TableCell>
                <TableCell align="right" sx={NO_WRAP}>
                  {session.current ? null : (
                    <Button
                      size="small"
                      disabled={endOne.isPending}
                      onClick={() =>
                        setEnding({
                          action: `sign out ${session.device} (${session.place})`,
                          run: (password) => endOne.mutateAsync({ id: session.id, password }),
                        })
                      }
                      aria-label={`Sign out ${session.device}, ${session.place}`}
                    >
                      Sign out
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      {list.length > 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1, maxWidth: 900 }}>
          Places are approximate, looked up from each session&apos;s IP address.
          {sessions.data?.placesAttribution ? (
            <>
              {' '}
              <Link href={sessions.data.placesAttribution.url} target="_blank" rel="noopener">
                {sessions.data.placesAttribution.text}
              </Link>
              .
            </>
          ) : null}
        </Typography>
      ) : null}
      {failure ? (
        <Alert severity="error" sx={{ mt: 2, maxWidth: 900 }}>
          {errorMessageOf(failure)}
        </Alert>
      ) : null}
      {endOthers.isSuccess ? (
        <Alert severity="success" sx={{ mt: 2, maxWidth: 900 }}>
          Signed out of {endOthers.data.endedSessions} other{' '}
          {endOthers.data.endedSessions === 1 ? 'session' : 'sessions'}.
        </Alert>
      ) : null}
      <Button
        variant="outlined"
        sx={{ mt: 2 }}
        disabled={others === 0 || endOthers.isPending}
        onClick={() =>
          setEnding({
            action: 'sign out your other sessions',
            run: (password) => endOthers.mutateAsync(password),
          })
        }
      >
        Sign out other sessions
      </Button>
      <ConfirmIdentityDialog
        open={ending !== null}
        email={email}
        passwordOnly
        action={ending?.action ?? ''}
        onClose={() => setEnding(null)}
        onConfirm={async ({ password }) => {
          await ending?.run(password);
          setEnding(null);
        }}
      />
    </Box>
  );
}
