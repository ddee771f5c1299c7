import { useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { errorEntries, type ErrorEntry, type FormSession } from './session';

/**
 * The errors the step's fields show, each a link to its field (spec §8, business step). Drawn
 * beside the questions, below everything else there: it comes and goes as answers change
 * (400 ms after a change) and must never move the form a user is aiming at.
 */
export function ErrorSummary({ session }: { session: FormSession }) {
  const shown = useSyncExternalStore(session.shownErrors.subscribe, session.shownErrors.get);
  const entries = shown ? errorEntries(shown, session.idPrefix) : [];
  if (entries.length === 0) return null;
  return (
    <Alert severity="error" aria-labelledby="error-summary-title">
      <AlertTitle id="error-summary-title">Please correct the following errors:</AlertTitle>
      <ErrorLinks entries={entries} />
    </Alert>
  );
}

function ErrorLinks({ entries }: { entries: ErrorEntry[] }) {
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
      {entries.map((entry, index) => (
        <li key={`${entry.id}-${index}`}>
          <Link
            href={`#${entry.id}`}
            color="inherit"
            onClick={(event) => {
              event.preventDefault();
              focusField(entry.id);
            }}
          >
            {entry.message}
          </Link>
        </li>
      ))}
    </Box>
  );
}

/** Focuses a field's input (an upload's choose button), scrolling it into view. */
function focusField(id: string) {
  const element =
    document.getElementById(`${id}-choose`) ??
    document.getElementById(id) ??
    document.querySelector<HTMLElement>(`[id^="${id}"]`);
  if (!element) return;
  const target = element.matches('input, select, textarea, button, [tabindex]')
    ? element
    : (element.querySelector<HTMLElement>('input, select, textarea, button, [tabindex]') ??
      element);
  target.focus();
  target.scrollIntoView?.({ block: 'center' });
}
