import { useSyncExternalStore } from 'react';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditNoteIcon from '@mui/icons-material/EditNote';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { fromPointer } from '../../shared/forms/model/pointer';
import type { FormSession } from './session';

/** The element id of a step's section heading (stepLayout draws it). */
export function sectionHeadingId(stepId: string, index: number): string {
  return `section-${stepId}-${index}`;
}

/**
 * Beside a long step: its titled sections, each a link to its heading with how many of its
 * answers are still needed or to fix (or that it is complete), so a user sees where they are and
 * what is left. Counts every answer the section still needs or must fix, touched or not, as "N
 * answers are still needed" does for the step; a rule across a list's items counts at the list.
 */
export function SectionProgress({ session }: { session: FormSession }) {
  const entries = useSyncExternalStore(session.stepErrors.subscribe, session.stepErrors.get);
  const stepIndex = useSyncExternalStore(session.stepIndex.subscribe, session.stepIndex.get);
  const { uploads } = session.engine;
  useSyncExternalStore(uploads.subscribe, uploads.revision);
  const step = session.steps?.[stepIndex];
  const sections = (step?.sections ?? [])
    .map((section, index) => ({ section, index }))
    .filter(({ section }) => section.title);
  if (!step || sections.length < 2) return null;
  const needed = byQuestion(entries.filter((entry) => !entry.given).map((entry) => entry.pointer));
  const toFix = byQuestion(entries.filter((entry) => entry.given).map((entry) => entry.pointer));
  const sending = byQuestion(uploads.sending());
  // Change mode: the questions staff asked to change (none when a note alone opens everything).
  const requested = byQuestion(session.changeMode?.marked ?? []);
  return (
    <Box component="nav" aria-labelledby="section-progress-title" sx={{ mb: 2 }}>
      <Typography id="section-progress-title" component="h3" variant="subtitle2" sx={{ mb: 1 }}>
        Sections
      </Typography>
      <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {sections.map(({ section, index }) => {
          const countOf = (found: Map<string, Set<string>>) =>
            section.fields.reduce((sum, name) => sum + (found.get(name)?.size ?? 0), 0);
          const fix = countOf(toFix);
          const count = countOf(needed) + fix;
          const uploading = countOf(sending);
          const changes = countOf(requested);
          const id = sectionHeadingId(step.id, index);
          const done = count === 0 && uploading === 0 && changes === 0;
          // What the section waits for first: answers, then files still being sent; a section
          // holding requested changes says so rather than that it is complete.
          const state =
            count > 0
              ? sectionLeft(count - fix, fix)
              : uploading > 0
                ? uploading === 1
                  ? 'Uploading a file'
                  : `Uploading ${uploading} files`
                : changes > 0
                  ? changes === 1
                    ? '1 change requested'
                    : `${changes} changes requested`
                  : 'Complete';
          return (
            <Box
              component="li"
              key={id}
              sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', py: 0.5 }}
            >
              {done ? (
                <CheckCircleIcon fontSize="small" color="success" aria-hidden />
              ) : count === 0 && uploading === 0 ? (
                <EditNoteIcon fontSize="small" color="warning" aria-hidden />
              ) : (
                <RadioButtonUncheckedIcon fontSize="small" color="action" aria-hidden />
              )}
              <Box sx={{ minWidth: 0 }}>
                <Link
                  href={`#${id}`}
                  variant="body2"
                  onClick={(event) => {
                    event.preventDefault();
                    const heading = document.getElementById(id);
                    heading?.focus({ preventScroll: true });
                    heading?.scrollIntoView?.({ block: 'start' });
                  }}
                >
                  {section.title}
                </Link>
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                  {state}
                </Typography>
              </Box>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

/** A section's answers still needed and to fix: '1 answer needed', '1 answer to fix', both. */
function sectionLeft(needed: number, toFix: number): string {
  const neededText = needed === 1 ? '1 answer needed' : `${needed} answers needed`;
  const fixText = toFix === 1 ? '1 answer to fix' : `${toFix} answers to fix`;
  if (toFix === 0) return neededText;
  return needed === 0 ? fixText : `${neededText}, ${fixText}`;
}

/** Pointers grouped by their question (the top-level answer a section lists). */
function byQuestion(pointers: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const pointer of pointers) {
    const top = fromPointer(pointer)[0];
    if (top === undefined) continue;
    if (!out.has(top)) out.set(top, new Set());
    out.get(top)!.add(pointer);
  }
  return out;
}
