import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useCurrentUser } from '../../api/get-current-user';
import { PageTitle } from '../../app/PageTitle';

export const PENDING_REVIEW_MESSAGE =
  "Your application has been received. We'll let you know once it has been reviewed.";
export const APPROVED_MESSAGE = 'Your application has been approved.';

/** /clearing/home (minimal): greeting and the approval banner (business §2.5). */
export function HomePage() {
  const { data: user } = useCurrentUser();
  const details = user?.details;
  return (
    <Container maxWidth="lg" sx={{ py: 5 }}>
      <PageTitle title="Home" />
      <Typography variant="h1" sx={{ mb: 3 }}>
        Welcome {details?.firstName ?? ''}!
      </Typography>
      {details?.approved ? (
        <Alert severity="success">{APPROVED_MESSAGE}</Alert>
      ) : (
        <Alert severity="info">{PENDING_REVIEW_MESSAGE}</Alert>
      )}
    </Container>
  );
}
