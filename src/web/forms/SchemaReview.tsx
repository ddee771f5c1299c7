import { Fragment, useSyncExternalStore, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { FormStep } from '../../shared/forms/model/steps';
import {
  allRows,
  reviewSections,
  type ReviewForm,
  type ReviewRow,
} from '../../shared/forms/review/reviewRows';
import { sectionHeadingId } from './SectionProgress';
import type { FormSession } from './session';

/**
 * The read-only review of a session: every question step's sections, their rows from the
 * shared review rows (`shared/forms/review`, the walker over the compiled form, as the staff
 * console reads a registration), answers a condition hides left out, with an Edit link per
 * section that returns to its step. Never a second copy of the questions: a prompt changed in
 * the schema changes here too.
 */
export function SchemaReview({
  session,
  onEdit,
}: {
  session: FormSession;
  /** Edit: back to the step, landing at the section's heading (null: the step's). */
  onEdit: (stepIndex: number, sectionHeading: string | null) => void;
}) {
  const answers = useSyncExternalStore(session.engine.answers.subscribe, () => session.answers());
  const steps = session.steps ?? [];
  const sections = reviewSections(reviewFormOf(session), answers);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {sections.map((section) => {
        const step = steps[section.stepIndex];
        const headingId = `review-${section.stepId}-${section.sectionIndex}`;
        return (
          <Box component="section" key={headingId} aria-labelledby={headingId}>
            <Box
              sx={{
                display: 'flex',
                justifyContent: 'space-between',
                alignItems: 'baseline',
                borderBottom: 1,
                borderColor: 'divider',
                mb: 1,
              }}
            >
              <Typography id={headingId} component="h3" variant="h6">
                {section.title}
              </Typography>
              {step && (
                <EditLink
                  step={step}
                  title={section.title}
                  onClick={() =>
                    onEdit(
                      section.stepIndex,
                      section.sectionTitle ? sectionHeadingId(step.id, section.sectionIndex) : null,
                    )
                  }
                />
              )}
            </Box>
            <Box component="dl" sx={{ m: 0 }}>
              {section.rows.flatMap(reviewRow)}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

/** What the review rows need of a session: its compiled form, with the steps the session shows. */
function reviewFormOf(session: FormSession): ReviewForm {
  return { ...session.form, steps: session.steps };
}

/** The review's rows of `answers` by pointer, walked once per answers object. */
const rowsByAnswers = new WeakMap<object, Map<string, ReviewRow>>();

/**
 * The review's row of the answer at `pointer` (prompt and answer as text, nested rows of a group
 * or a list), or undefined when the review shows no such answer.
 */
export function reviewRowAt(
  session: FormSession,
  answers: Record<string, unknown>,
  pointer: string,
): ReviewRow | undefined {
  let rows = rowsByAnswers.get(answers);
  if (!rows) {
    rows = new Map(
      allRows(reviewSections(reviewFormOf(session), answers)).map((row) => [row.pointer, row]),
    );
    rowsByAnswers.set(answers, rows);
  }
  return rows.get(pointer);
}

function EditLink({
  step,
  title,
  onClick,
}: {
  step: FormStep;
  title: string;
  onClick: () => void;
}) {
  return (
    <Link
      component="button"
      type="button"
      variant="body2"
      onClick={onClick}
      aria-label={`Edit ${title} (${step.title})`}
    >
      Edit
    </Link>
  );
}

/** A prompt and its answer; an object's or a list's answers nested under it (inside a `dl`). */
export function reviewRow(row: ReviewRow): ReactNode[] {
  if (row.children) {
    return [
      <Row key={row.pointer} prompt={row.prompt} answer="" />,
      <Box key={`${row.pointer}-nested`} component="dd" sx={{ ml: 2, mb: 1 }}>
        <Box component="dl" sx={{ m: 0 }}>
          {row.children.flatMap(reviewRow)}
        </Box>
      </Box>,
    ];
  }
  if (row.items?.length) {
    return [
      <Row key={row.pointer} prompt={row.prompt} answer="" />,
      ...row.items.map((item) => (
        <Box key={item.pointer} component="dd" sx={{ ml: 2, mb: 1 }}>
          <Typography component="h4" variant="subtitle2">
            {item.title}
          </Typography>
          <Box component="dl" sx={{ m: 0 }}>
            {item.rows.flatMap(reviewRow)}
          </Box>
        </Box>
      )),
    ];
  }
  return [<Row key={row.pointer} prompt={row.prompt} answer={shownText(row)} />];
}

/**
 * An SSN or passport number is shown by its last four characters only (the screen may be seen
 * by others; the user typed the whole of it); a date of birth is shown as typed.
 */
function shownText(row: ReviewRow): string {
  if (!row.sensitive || row.date || !row.answered) return row.text;
  return `${'•'.repeat(Math.max(0, row.text.length - 4))}${row.text.slice(-4)}`;
}

function Row({ prompt, answer }: { prompt: string; answer: string }) {
  return (
    <Fragment>
      <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {prompt}
      </Typography>
      {answer && (
        <Typography component="dd" sx={{ ml: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {answer}
        </Typography>
      )}
    </Fragment>
  );
}
