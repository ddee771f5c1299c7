import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  DISCLOSURE_HEADINGS,
  type DisclosureCategory,
  type DisclosuresResponse,
} from '../../../shared/api/disclosures';
import { useDisclosures } from '../../api/get-disclosures';
import { PageTitle } from '../../app/PageTitle';
import { DailySegregationList } from './DailySegregationList';
import { formatUtcDate } from './disclosureDates';
import { PdfLink, PdfLinkGrid } from './DisclosureLinks';

const LOADING_TEXT = 'Loading...';
const LOAD_ERROR_TEXT = 'Error with loading documents';
const EMPTY_TEXT = 'No documents available yet.';

/**
 * /clearing/regulation/disclosures/{category} (public, business §2.4): the category's heading,
 * then 'Loading...', 'Error with loading documents', or its documents.
 */
export function DisclosureCategoryPage({ category }: { category: DisclosureCategory }) {
  const heading = DISCLOSURE_HEADINGS[category];
  const { data, isPending, isError } = useDisclosures();
  return (
    <Container maxWidth="md" sx={{ py: 5 }}>
      <PageTitle title={heading} />
      <Link
        component={RouterLink}
        to="/regulation/disclosures"
        underline="hover"
        variant="body2"
        sx={{ display: 'inline-block', mb: 2 }}
      >
        Regulatory Disclosures
      </Link>
      <Typography variant="h1" sx={{ mb: 3 }}>
        {heading}
      </Typography>
      {isPending ? (
        <Typography role="status">{LOADING_TEXT}</Typography>
      ) : isError ? (
        <Alert severity="error">{LOAD_ERROR_TEXT}</Alert>
      ) : (
        <CategoryDocuments category={category} data={data} />
      )}
    </Container>
  );
}

function CategoryDocuments({
  category,
  data,
}: {
  category: DisclosureCategory;
  data: DisclosuresResponse;
}) {
  const empty = <Typography>{EMPTY_TEXT}</Typography>;
  const note = (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
      Each document opens as a PDF in a new tab.
    </Typography>
  );
  switch (category) {
    case 'firm-disclosure': {
      const firm = data.firmDisclosure;
      if (!firm) return empty;
      return (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <PdfLink href={firm.firmDisclosureLatestPath}>Firm Disclosure Document</PdfLink>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            Effective {formatUtcDate(firm.firmDisclosureDate, 'MMMM d, yyyy')}
          </Typography>
        </Paper>
      );
    }
    case 'daily-segregation':
      if (!data.dailySegregation.some((month) => month.days.length > 0)) return empty;
      return (
        <>
          {note}
          <DailySegregationList months={data.dailySegregation} />
        </>
      );
    case 'capital-summary':
    case 'monthly-segregation': {
      const entries =
        category === 'capital-summary' ? data.capitalSummary : data.monthlySegregation;
      if (entries.length === 0) return empty;
      return (
        <>
          {note}
          <Paper variant="outlined" sx={{ p: 3 }}>
            <PdfLinkGrid
              label="Month-end documents"
              links={entries.map((entry) => ({
                href: entry.monthlyDisclosurePath,
                text: formatUtcDate(entry.monthlyDisclosureMonth, 'yyyy-MM'),
              }))}
            />
          </Paper>
        </>
      );
    }
    case 'audited-financial': {
      // The latest certified annual statement (CFTC 1.55(o)(1)): one year.
      const latest = data.auditedFinancial[0];
      if (!latest) return empty;
      return (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <PdfLink href={latest.yearlyDisclosurePath}>{latest.yearlyDisclosureYear}</PdfLink>
        </Paper>
      );
    }
  }
}
