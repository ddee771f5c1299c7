import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Typography from '@mui/material/Typography';
import type { FormStep } from '../../../shared/forms/model/steps';
import { fromPointer, toPointer } from '../../../shared/forms/model/pointer';
import { idOfPointer, type FormSession } from '../../forms/session';

/** Focusable controls of a question, in document order. */
const FOCUSABLE =
  'input:not([type="hidden"]):not([hidden]):not([disabled]):not([tabindex="-1"]), select:not([disabled]), button:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

/**
 * The first marked question's control: inside its outlined box; for an answer inside a list row
 * drawn in a dialog (an affiliated person's), the row's Edit button.
 */
function firstChangeTarget(pointer: string): HTMLElement | null {
  const box = document.querySelector(`[data-requested-change="${CSS.escape(pointer)}"]`);
  const inBox = box?.querySelector<HTMLElement>(FOCUSABLE);
  if (inBox) return inBox;
  const keys = fromPointer(pointer);
  for (let length = keys.length; length > 0; length--) {
    const element = document.getElementById(idOfPointer(toPointer(keys.slice(0, length))));
    if (element && element.matches(FOCUSABLE)) return element;
  }
  return null;
}

/** The wizard step showing the question at `pointer` (its top-level answer's step). */
export function stepOf(steps: readonly FormStep[] | undefined, pointer: string): number {
  const key = fromPointer(pointer)[0];
  const index = (steps ?? []).findIndex((step) =>
    step.sections.some((section) => key !== undefined && section.fields.includes(key)),
  );
  return Math.max(0, index);
}

/** The marked question the form shows first (step, then place in the step). */
export function firstInFormOrder(
  steps: readonly FormStep[] | undefined,
  marked: string[],
): string | undefined {
  const order = (steps ?? []).flatMap((step) => step.sections.flatMap((section) => section.fields));
  const rank = (pointer: string) => {
    const place = order.indexOf(fromPointer(pointer)[0] ?? '');
    return place === -1 ? order.length : place;
  };
  return [...marked].sort((a, b) => rank(a) - rank(b))[0];
}

/**
 * Change mode's opening (issue 17): what to do, the note on the whole application, and focus on
 * the first question staff asked about (the wizard opens at its step).
 */
export function ChangesRequestedIntro({ session }: { session: FormSession }) {
  const changeMode = session.changeMode;
  const first = changeMode && firstInFormOrder(session.steps, changeMode.marked);
  useEffect(() => {
    if (!first) return;
    // After the step's fields are drawn (the wizard draws them in this commit's layout effects).
    const frame = requestAnimationFrame(() => {
      const target = firstChangeTarget(first);
      target?.focus();
      target?.scrollIntoView?.({ block: 'center' });
    });
    return () => cancelAnimationFrame(frame);
  }, [first]);
  if (!changeMode) return null;
  return (
    <Alert severity="warning" sx={{ mb: 3 }}>
      <AlertTitle>Make the changes we asked for</AlertTitle>
      <Typography>
        {changeMode.fields.length > 0
          ? 'The questions we asked about are outlined, each with our note; the other answers stay as you submitted them. Submit when you are done and we will review your application again.'
          : 'Change what we asked for below, then submit; we will review your application again.'}
      </Typography>
      {changeMode.note ? (
        <Typography sx={{ mt: 1, whiteSpace: 'pre-line', fontWeight: 500 }}>
          {changeMode.note}
        </Typography>
      ) : null}
    </Alert>
  );
}
