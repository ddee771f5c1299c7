import { Link as RouterLink } from 'react-router-dom';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { PageTitle } from '../../app/PageTitle';

/** Placeholder: the individual registration form replaces this page (loaded lazily). */
export function IndividualRegistrationPage() {
  return (
    <Container sx={{ maxWidth: 800, py: 5 }}>
      <PageTitle title="Individual Registration" />
      <Typography variant="h1" gutterBottom>
        Individual Registration
      </Typography>
      <Link component={RouterLink} to="/registration?returned=1">
        Not an individual?
      </Link>
    </Container>
  );
}
