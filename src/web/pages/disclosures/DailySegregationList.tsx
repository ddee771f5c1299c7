import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { DailyDisclosureMonth } from '../../../shared/api/disclosures';
import { formatUtcDate, groupDailyByUtcMonth } from './disclosureDates';
import { PdfLinkGrid } from './DisclosureLinks';

/**
 * Daily segregation statements grouped by UTC month ('MMMM yyyy'), newest first, each month a
 * collapsed accordion (a button with aria-expanded inside a heading) listing its days.
 */
export function DailySegregationList({ months }: { months: DailyDisclosureMonth[] }) {
  const groups = groupDailyByUtcMonth(months);
  return (
    <div>
      {groups.map((group) => (
        <Accordion
          key={group.key}
          disableGutters
          variant="outlined"
          slotProps={{ heading: { component: 'h2' }, transition: { unmountOnExit: true } }}
          sx={{ '&:not(:last-of-type)': { borderBottom: 0 } }}
        >
          <AccordionSummary
            expandIcon={<ExpandMoreIcon />}
            id={`daily-${group.key}-header`}
            aria-controls={`daily-${group.key}-content`}
          >
            <Typography component="span" sx={{ fontWeight: 600 }}>
              {group.heading}
            </Typography>
          </AccordionSummary>
          <AccordionDetails sx={{ pt: 0, pb: 2 }}>
            <PdfLinkGrid
              label={`Daily statements of ${group.heading}`}
              links={group.days.map((day) => ({
                href: day.dailyDisclosurePath,
                text: formatUtcDate(day.dailyDisclosureDay, 'yyyy-MM-dd'),
              }))}
            />
          </AccordionDetails>
        </Accordion>
      ))}
    </div>
  );
}
