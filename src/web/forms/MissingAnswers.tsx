import { useSyncExternalStore } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { fromPointer } from '../../shared/forms/model/pointer';
import type { ErrorEntry, FormSession } from './session';
import { stepFields } from '../../shared/forms/model/steps';

/**
 * Beside a disabled submit or next button, what it waits for: how many answers are still needed
 * and how many to fix, with a control that moves to the first of them and shows its message (on the review, the
 * step that asks it), or that no answer has been given yet. A grey button then never leaves the
 * user guessing (issues 11, 26).
 */
export function MissingAnswers({
  session,
  onGoToStep,
}: {
  session: FormSession;
  /** Moves to another step with focus on `id` (the review's way to an answer it lacks). */
  onGoToStep?: (stepIndex: number, id: string) => void;
}) {
  const entries = useSyncExternalStore(session.stepErrors.subscribe, session.stepErrors.get);
  const status = useSyncExternalStore(session.status.subscribe, session.status.get);
  // Sent: nothing is missing (behind the success dialog the form said 'No answer has been given
  // yet', issue 38 §4).
  if (status.submitting || status.canSubmit || status.submitted) return null;
  if (entries.length === 0) {
    return status.dirty ? null : (
      <Typography role="status" variant="body2" color="text.secondary">
        No answer has been given yet.
      </Typography>
    );
  }
  const toFix = new Set(entries.filter((entry) => entry.given).map((entry) => entry.id));
  const needed = new Set(entries.filter((entry) => !toFix.has(entry.id)).map((entry) => entry.id));
  function showFirst() {
    // The first in the page's order, not the schema's.
    const onPage = entries
      .map((entry) => ({ entry, element: document.getElementById(entry.id) }))
      .filter((found): found is { entry: ErrorEntry; element: HTMLElement } =>
        Boolean(found.element),
      )
      .sort((a, b) =>
        a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
      );
    const first = onPage[0]?.entry ?? entries[0]!;
    const step = onPage.length === 0 ? stepAsking(session, first) : undefined;
    if (step !== undefined && onGoToStep) onGoToStep(step, first.id);
    session.reveal(first.id);
  }
  return (
    <Box role="status" sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
      <Typography variant="body2" color="text.secondary">
        {answersLeft(needed.size, toFix.size)}
      </Typography>
      <Link component="button" type="button" variant="body2" onClick={showFirst}>
        Go to the first
      </Link>
    </Box>
  );
}

/**
 * What a grey button waits for: answers still needed (none given) and answers to fix (given and
 * refused, a list breaking a rule across its items included), each counted by question.
 */
function answersLeft(needed: number, toFix: number): string {
  const neededText =
    needed === 1 ? '1 answer is still needed' : `${needed} answers are still needed`;
  const fixText = toFix === 1 ? '1 answer to fix' : `${toFix} answers to fix`;
  if (toFix === 0) return `${neededText}.`;
  if (needed === 0) return `${fixText}.`;
  return `${neededText}, ${fixText}.`;
}

/** The step whose questions hold `entry`'s answer, when another step than the one shown does. */
function stepAsking(session: FormSession, entry: ErrorEntry): number | undefined {
  const name = fromPointer(entry.pointer)[0];
  const index = (session.steps ?? []).findIndex(
    (step) => !step.review && name !== undefined && stepFields(step).includes(name),
  );
  return index < 0 || index === session.stepIndex.get() ? undefined : index;
}
