import { Link as RouterLink } from 'react-router-dom';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { PageTitle } from '../../app/PageTitle';

/** Placeholder: the business registration wizard replaces this page (loaded lazily). */
export function BusinessRegistrationPage() {
  return (
    <Container sx={{ maxWidth: 800, py: 5 }}>
      <PageTitle title="Business Registration" />
      <Typography variant="h1" gutterBottom>
        Business Registration
      </Typography>
      <Link component={RouterLink} to="/registration?returned=1">
        Not a business?
      </Link>
    </Container>
  );
}
