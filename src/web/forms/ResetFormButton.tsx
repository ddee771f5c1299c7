import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { canonicalJson } from '../../shared/forms/model/bundleForm';
import { isAgreement, type JsonSchema } from '../../shared/forms/model/schemaTypes';
import { isFileReference } from '../../shared/forms/model/types';
import { getByPointer } from './engine';
import type { Answers, FormSession } from './session';

function heldName(answers: unknown, pointer: string): string {
  const reference = getByPointer(answers, pointer);
  return isFileReference(reference) ? reference.name : pointer;
}

/** What Reset Form would clear, in the user's words: sections, chosen documents, signatures. */
function whatResetLoses(session: FormSession): string[] {
  const answers = session.answers();
  const prefilled = session.prefilledAnswers();
  // What the form starts with (a country chosen by default): the user gave nothing there.
  const fresh = (session.schemaUtils.getDefaultFormState(session.schema, {}) ?? {}) as Answers;
  const given = (name: string) => {
    const value = answers[name];
    if (value === undefined || value === null || value === '') return false;
    // A prefilled answer as it came is not the user's; edited, it is (issue 26 §2).
    if (name in prefilled) return canonicalJson(value) !== canonicalJson(prefilled[name]);
    if (canonicalJson(value) === canonicalJson(fresh[name])) return false;
    // rjsf fills an unanswered file with {}: not an answer.
    return !(typeof value === 'object' && Object.keys(value).length === 0);
  };
  const lost: string[] = [];
  for (const step of session.steps ?? []) {
    for (const section of step.sections) {
      if (section.fields.some(given)) lost.push(`Your answers in ${section.title ?? step.title}`);
    }
  }
  if (!session.steps && Object.keys(answers).some(given)) lost.push('Every answer you gave');
  const files = [
    ...Object.values(session.engine.files.forAnswers(answers)).map((file) => file.name),
    // Files the server holds (uploaded when chosen) are answers too.
    ...[...session.engine.files.heldFor(answers)].map((pointer) => heldName(answers, pointer)),
  ];
  if (files.length > 0) lost.push(`The documents you chose: ${files.join(', ')}`);
  // An agreement is a `const: true` answer (a yes/no question's Yes is true too, but no signature).
  const root = session.schemaUtils.retrieveSchema(session.schema, answers);
  const signatures = Object.entries(root.properties ?? {}).filter(
    ([name, property]) =>
      answers[name] === true &&
      typeof property === 'object' &&
      isAgreement(session.schemaUtils.retrieveSchema(property) as JsonSchema),
  ).length;
  if (signatures > 0) lost.push(signatures === 1 ? '1 signature' : `${signatures} signatures`);
  return lost;
}

/**
 * Reset Form: asks first, naming what will be cleared (answers by section, chosen documents,
 * signatures), since there is no undo; a form with nothing given resets without asking.
 */
export function ResetFormButton({
  session,
  disabled,
}: {
  session: FormSession;
  disabled?: boolean;
}) {
  const [lost, setLost] = useState<string[] | null>(null);
  return (
    <>
      <Button
        type="button"
        variant="text"
        color="inherit"
        disabled={disabled}
        onClick={() => {
          const losing = whatResetLoses(session);
          if (losing.length === 0) session.reset();
          else setLost(losing);
        }}
      >
        Reset Form
      </Button>
      <Dialog
        open={lost !== null}
        onClose={() => setLost(null)}
        aria-labelledby="reset-form-title"
        aria-describedby="reset-form-text"
      >
        <DialogTitle id="reset-form-title">Reset the form?</DialogTitle>
        <DialogContent>
          <DialogContentText id="reset-form-text">
            This clears everything you have given on every step, and cannot be undone:
          </DialogContentText>
          <ul>
            {(lost ?? []).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setLost(null)}>Keep my answers</Button>
          <Button
            color="error"
            onClick={() => {
              setLost(null);
              session.reset();
            }}
          >
            Reset Form
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
