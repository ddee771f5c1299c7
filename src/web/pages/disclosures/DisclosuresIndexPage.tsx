import { Link as RouterLink } from 'react-router-dom';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { PageTitle } from '../../app/PageTitle';

const latestPdf = (category: string) => `/clearing/disclosures/${category}/latest.pdf`;

/** /clearing/regulation/disclosures (public): the index of business §2.4. */
export function DisclosuresIndexPage() {
  return (
    <Container maxWidth="md" sx={{ py: 5 }}>
      <PageTitle title="Regulatory Disclosures" />
      <Typography variant="h1" gutterBottom>
        Regulatory Disclosures
      </Typography>
      <Typography variant="h2" sx={{ mt: 3, mb: 1 }}>
        General Disclosures
      </Typography>
      <ul>
        <li>
          <Link href={latestPdf('firm-disclosure')}>Firm Disclosure</Link>
        </li>
      </ul>
      <Typography variant="h2" sx={{ mt: 3, mb: 1 }}>
        Financial Disclosures
      </Typography>
      <ul>
        <li>
          <Link component={RouterLink} to="/regulation/disclosures/daily-segregation">
            Daily Segregation
          </Link>
        </li>
        <li>
          <Link component={RouterLink} to="/regulation/disclosures/monthly-segregation">
            Monthly Segregation
          </Link>
        </li>
        <li>
          <Link href={latestPdf('capital-summary')} target="_blank" rel="noopener">
            Capital Summary
          </Link>
        </li>
        <li>
          <Link href={latestPdf('audited-financial')} target="_blank" rel="noopener">
            Audited Financial
          </Link>
        </li>
      </ul>
    </Container>
  );
}
