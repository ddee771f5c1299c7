import { Link as RouterLink } from 'react-router-dom';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { PageTitle } from './PageTitle';

/** Category headings, spelling as the product has it (business §2.4). */
export const DISCLOSURE_HEADINGS: Record<string, string> = {
  'firm-disclosure': 'Firm Disclosure - Rule 1.55(k)',
  'daily-segregation':
    'Customer Funds Computations for current 12 Month Period Persuant to CFTC Rule 1.55(o)(1)(i,ii,iii)',
  'capital-summary': 'Prior 12 month-end net capital History',
  'monthly-segregation':
    'Month-end Customer Funds Computations Pursuant to CFTC Rule 1.55(o)(1)(vi)',
  'audited-financial': 'Audited Financial Statement',
};

/** Stand-in for a disclosure category page until the disclosures issue builds it. */
export function DisclosureCategoryPlaceholder({ category }: { category: string }) {
  const heading = DISCLOSURE_HEADINGS[category] ?? category;
  return (
    <Container maxWidth="md" sx={{ py: 5 }}>
      <PageTitle title={heading} />
      <Typography variant="h1" gutterBottom>
        {heading}
      </Typography>
      <Typography sx={{ mb: 2 }}>No documents available yet.</Typography>
      <Link component={RouterLink} to="/regulation/disclosures">
        All regulatory disclosures
      </Link>
    </Container>
  );
}
