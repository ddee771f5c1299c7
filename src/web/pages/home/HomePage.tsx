import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ApplicationReview } from '../../../shared/api/auth';
import { errorMessageOf } from '../../api/client';
import { useCurrentUser } from '../../api/get-current-user';
import { useStatement } from '../../api/get-statement';
import { PageTitle } from '../../app/PageTitle';
import { SupportContact } from '../../app/SupportContact';
import { LiveMarketPanel } from '../../market/LiveMarketPanel';
import { StatementView } from './statement/StatementView';
import type { RegistrationOverview } from '../../../shared/api/registration';
import { useRegistrationOverview } from '../../api/get-registration';
import { ChangesRequested, StatusTimeline } from './ReviewProgress';

const PENDING_REVIEW_MESSAGE =
  "Your application has been received. We'll let you know once it has been reviewed.";
const APPROVED_MESSAGE = 'Your application has been approved.';
const STATEMENT_LOADING_MESSAGE = 'Loading your statement…';
const REJECTED_TITLE = 'Your application was not accepted';
const CHANGES_LOADING_MESSAGE = 'Loading the changes we asked for…';

function LoadingLine({ text }: { text: string }) {
  return (
    <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
      <CircularProgress size={20} aria-hidden="true" />
      <Typography>{text}</Typography>
    </Stack>
  );
}

/**
 * The banner of an application that is not approved (docs/decisions.md, Applicants and reviewers):
 * received and awaiting review; changes requested, with what to change; rejected, with the
 * reason staff gave and the support contact.
 */
function ReviewBanner({
  review,
  overview,
}: {
  review: ApplicationReview | null | undefined;
  overview: UseQueryResult<RegistrationOverview>;
}) {
  if (review?.status === 'changes_requested') {
    // Never the banner without its list and its button (issue 26 §1): until the requested
    // changes are here, the page says it is loading them.
    if (overview.data?.registration) {
      return <ChangesRequested overview={overview.data.registration} />;
    }
    if (overview.isError) {
      return (
        <Alert severity="error">
          The changes we asked for could not be loaded. {errorMessageOf(overview.error)}
        </Alert>
      );
    }
    return <LoadingLine text={CHANGES_LOADING_MESSAGE} />;
  }
  if (review?.status === 'rejected') {
    return (
      <Alert severity="error">
        <AlertTitle>{REJECTED_TITLE}</AlertTitle>
        {review.reason && (
          <Typography sx={{ mb: 1, whiteSpace: 'pre-line' }}>Reason: {review.reason}</Typography>
        )}
        <Typography>
          If you have questions, contact support at <SupportContact />.
        </Typography>
      </Alert>
    );
  }
  return <Alert severity="info">{PENDING_REVIEW_MESSAGE}</Alert>;
}

/**
 * /clearing/home (business §2.5, §4 "User approval"): the greeting, then by review and statement
 * state the review banner (received, changes requested, rejected), the approved banner (no
 * statement yet, or no organisation to fetch one for), or the statement; the live market panel
 * below.
 */
export function HomePage() {
  const { data: user } = useCurrentUser();
  const details = user?.details;
  const approved = details?.approved === true;
  // Never fetched for a customer awaiting review: the statement is for approved customers (§6).
  const statement = useStatement(user?.organizationId, { enabled: approved });
  // The registration's statuses (and requested changes), for a user who submitted one.
  const overview = useRegistrationOverview(!!user?.review);

  let body;
  if (!approved) {
    body = <ReviewBanner review={user?.review} overview={overview} />;
  } else if (statement.data) {
    body = <StatementView statement={statement.data} />;
  } else if (statement.isError) {
    body = (
      <Alert severity="error">
        Your statement could not be loaded. {errorMessageOf(statement.error)}
      </Alert>
    );
  } else if (statement.isPending && statement.fetchStatus !== 'idle') {
    body = <LoadingLine text={STATEMENT_LOADING_MESSAGE} />;
  } else {
    body = <Alert severity="success">{APPROVED_MESSAGE}</Alert>;
  }

  // The live panel comes once the statement has its place: appearing below it moves nothing,
  // while a statement arriving above a drawn panel pushed it off the screen (CLS 0.6).
  const statementSettled = !approved || !statement.isPending || statement.fetchStatus === 'idle';

  return (
    <Container maxWidth="lg" sx={{ py: 5 }}>
      <PageTitle title="Home" />
      <Typography variant="h1" sx={{ mb: 3 }}>
        Welcome {details?.firstName ?? ''}!
      </Typography>
      {body}
      {overview.data?.registration && (
        <StatusTimeline history={overview.data.registration.history} />
      )}
      {user && statementSettled && (
        <Box sx={{ mt: 4 }}>
          <LiveMarketPanel />
        </Box>
      )}
    </Container>
  );
}
