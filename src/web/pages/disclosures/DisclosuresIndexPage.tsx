import { useId, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  DISCLOSURE_HEADINGS,
  latestDisclosurePath,
  type DisclosureCategory,
} from '../../../shared/api/disclosures';
import { PageTitle } from '../../app/PageTitle';

/** One entry: the link, and the category's full heading beneath it. */
function Entry({ category, children }: { category: DisclosureCategory; children: ReactNode }) {
  return (
    <li>
      {children}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
        {DISCLOSURE_HEADINGS[category]}
      </Typography>
    </li>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 3, mb: 3 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Typography
        component="ul"
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2, fontWeight: 600 }}
      >
        {children}
      </Typography>
    </Paper>
  );
}

const categoryPage = (category: DisclosureCategory) => `/regulation/disclosures/${category}`;

/**
 * /clearing/regulation/disclosures (public, business §2.4). Documents are plain anchors (a full
 * page load to the server's PDF); the two list pages are router links.
 */
export function DisclosuresIndexPage() {
  return (
    <Container maxWidth="md" sx={{ py: 5 }}>
      <PageTitle title="Regulatory Disclosures" />
      <Typography variant="h1" sx={{ mb: 3 }}>
        Regulatory Disclosures
      </Typography>
      <Section title="General Disclosures">
        <Entry category="firm-disclosure">
          <Link href={latestDisclosurePath('firm-disclosure')}>Firm Disclosure</Link>
        </Entry>
      </Section>
      <Section title="Financial Disclosures">
        <Entry category="daily-segregation">
          <Link component={RouterLink} to={categoryPage('daily-segregation')}>
            Daily Segregation
          </Link>
        </Entry>
        <Entry category="monthly-segregation">
          <Link component={RouterLink} to={categoryPage('monthly-segregation')}>
            Monthly Segregation
          </Link>
        </Entry>
        <Entry category="capital-summary">
          <Link
            href={latestDisclosurePath('capital-summary')}
            target="_blank"
            rel="noopener noreferrer"
          >
            Capital Summary
          </Link>
        </Entry>
        <Entry category="audited-financial">
          <Link
            href={latestDisclosurePath('audited-financial')}
            target="_blank"
            rel="noopener noreferrer"
          >
            Audited Financial
          </Link>
        </Entry>
      </Section>
    </Container>
  );
}
