import { useSyncExternalStore } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { FormSession } from './session';

/**
 * Beside a disabled submit or next button: how many answers the step still needs, and a control
 * that moves to the first of them and shows its message. A long page's grey button then never
 * leaves the user guessing (issue 11).
 */
export function MissingAnswers({ session }: { session: FormSession }) {
  const entries = useSyncExternalStore(session.stepErrors.subscribe, session.stepErrors.get);
  const status = useSyncExternalStore(session.status.subscribe, session.status.get);
  if (status.submitting || entries.length === 0) return null;
  const fields = new Set(entries.map((entry) => entry.id)).size;
  function showFirst() {
    // The first in the page's order, not the schema's.
    const onPage = entries
      .map((entry) => ({ entry, element: document.getElementById(entry.id) }))
      .filter((found): found is { entry: (typeof entries)[number]; element: HTMLElement } =>
        Boolean(found.element),
      )
      .sort((a, b) =>
        a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
      );
    session.reveal((onPage[0]?.entry ?? entries[0]!).id);
  }
  return (
    <Box role="status" sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
      <Typography variant="body2" color="text.secondary">
        {fields === 1 ? '1 answer is still needed.' : `${fields} answers are still needed.`}
      </Typography>
      <Link component="button" type="button" variant="body2" onClick={showFirst}>
        Go to the first
      </Link>
    </Box>
  );
}
