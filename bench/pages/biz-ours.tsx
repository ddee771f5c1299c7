/**
 * OURS, Business Details: the engine's SchemaForm drawing the wizard's Business Details step
 * through a form session, as the wizard page does (the affiliated persons as the dialog list),
 * 50 persons listed, the precompiled validators of the business form (whose module registers
 * the affiliated-person form's too).
 */
import businessForm from 'virtual:forms/business';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { SchemaForm } from '../../src/web/forms/SchemaForm';
import { FormSession } from '../../src/web/forms/session';
import { mount } from './probe';
import { Frame } from './shared';
import { businessAnswers } from './business';

/**
 * Click → first paint with the dialog: a capture-phase click listener notes the event's
 * timeStamp, each animation frame looks for the dialog, and in the first frame that has it
 * setTimeout(0) marks the paint (as the keystroke probe does). Samples go to
 * `bench.info.dialogOpen` once the driver has put an array there; `dialogFormReady` the same up
 * to the first frame whose dialog holds the form's inputs. A click on the plain dialog's button
 * (the baseline) goes to `plainDialogOpen` and `plainDialogReady`.
 */
document.addEventListener(
  'click',
  (event) => {
    const plain = (event.target as Element).closest(`#${PLAIN_DIALOG_BUTTON}`) !== null;
    const samples = window.bench.info[plain ? 'plainDialogOpen' : 'dialogOpen'];
    const ready = window.bench.info[plain ? 'plainDialogReady' : 'dialogFormReady'];
    if (!Array.isArray(samples) || !Array.isArray(ready)) return;
    const start = event.timeStamp;
    const mark = (selector: string, into: number[]) => {
      const look = () => {
        if (document.querySelector(selector)) {
          setTimeout(() => into.push(performance.now() - start), 0);
        } else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    };
    mark('[role=dialog]', samples);
    mark(plain ? '[role=dialog] input' : '[role=dialog] form input', ready);
  },
  { capture: true },
);
const session = new FormSession({
  form: businessForm,
  // As the registration page: the page shows the form's title.
  ownHeading: true,
  initial: businessAnswers(),
  // The wizard's delay (spec §4): validation 400 ms after the last change.
  validationDelayMs: 400,
});
session.goTo(session.steps!.findIndex((step) => step.id === 'business'));

const PLAIN_DIALOG_BUTTON = 'bench-plain-dialog';

/**
 * The dialog baseline of issue 29: a plain MUI Dialog with one text field, opened on this same
 * page (its 50-person table and form in the DOM), by a button out of the form's way.
 */
function PlainDialog() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        id={PLAIN_DIALOG_BUTTON}
        variant="outlined"
        sx={{ position: 'fixed', top: 8, right: 8, zIndex: 1 }}
        onClick={() => setOpen(true)}
      >
        Plain dialog
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm">
        <DialogTitle>Plain dialog</DialogTitle>
        <DialogContent>
          <TextField label="Name" fullWidth margin="dense" />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

mount(
  <Frame>
    <PlainDialog />
    <SchemaForm session={session} onSubmit={() => undefined} />
  </Frame>,
);
