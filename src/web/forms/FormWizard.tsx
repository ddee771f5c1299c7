import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Slide from '@mui/material/Slide';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import type { ErrorSchema } from '@rjsf/utils';
import { afterNextPaint } from './afterNextPaint';
import { ErrorSummary } from './ErrorSummary';
import { MissingAnswers } from './MissingAnswers';
import { ResetFormButton } from './ResetFormButton';
import { RestoredDraftNotice } from './RestoredDraftNotice';
import { SchemaForm, type Answers, type FilesByPointer } from './SchemaForm';
import { SchemaReview } from './SchemaReview';
import { SectionProgress } from './SectionProgress';
import type { FormSession } from './session';
import { fromErrorSchema } from '../../shared/forms/validation/rjsfErrors';
import { fieldsInOrder } from '../../shared/forms/walk/schemaWalk';
import type { ServerApplication } from './serverApplication';
import { MergedNotice, SaveAndFinishLater, SaveStatus } from './SaveStatus';
import { BELOW_DESKTOP } from '../app/theme';

/** Spec §2.1 (business): steps change with a 500 ms slide. */
const SLIDE_MS = 500;
/** The column beside a step's questions: its sections' progress and the error summary. */
const ASIDE_WIDTH = 260;

interface FormWizardProps {
  session: FormSession;
  /** The last step's action: sends the answers; a rejection keeps everything for another try. */
  onSubmit: (
    answers: Answers,
    files: FilesByPointer,
    held?: ReadonlySet<string>,
  ) => void | Promise<void>;
  /** The server's errors for answers it refused, shown beside their fields and on the review. */
  fieldErrors?: ErrorSchema<Answers>;
  /** Shown above the buttons of the last step (the failure of the last attempt). */
  failureAlert?: ReactNode;
  /** The application on the server: its save status beside the buttons, Save and finish later. */
  saver?: ServerApplication;
}

/**
 * A form session drawn as its uiSchema's steps (`ui:steps`): the stepper, the step's heading,
 * signature prompt and description, its questions in their sections with the sections' progress
 * and the error summary beside them, and a review step drawn from the same schema. Every form
 * is drawn by it, a one-step form included: the registration pages and the forms preview.
 *
 * Each step is an entry of the browser's history (`?step=<id>`): Back and Forward move between
 * steps, never past a step whose answers do not pass. After a step change focus moves to the new
 * step's heading, brought into view; Edit on the review lands at its section.
 */
export function FormWizard({
  session,
  onSubmit,
  fieldErrors,
  failureAlert,
  saver,
}: FormWizardProps) {
  const stepIndex = useSyncExternalStore(session.stepIndex.subscribe, session.stepIndex.get);
  const generation = useSyncExternalStore(session.generation.subscribe, session.generation.get);
  const steps = session.steps ?? [];
  const step = steps[stepIndex];
  const heading = useRef<HTMLHeadingElement>(null);
  /** Where focus lands after the next step change: the step's heading or a section's. */
  const landing = useRef<string | null>(null);
  const [entered] = useState(stepIndex);
  // The step slides in only once the user moves: the page's first draw stands where it settles
  // (a slide from the right on opening drew step 1 beside the card for half a second).
  const [openedAt] = useState({ stepIndex, generation });
  const [moved, setMoved] = useState(false);
  if (!moved && (stepIndex !== openedAt.stepIndex || generation !== openedAt.generation)) {
    setMoved(true);
  }
  useStepHistory(session);
  useServerRefusals(session, fieldErrors);

  useLayoutEffect(() => {
    // Not on the page's first draw: the user has not moved yet.
    if (stepIndex === entered && landing.current === null) return;
    const landed = landing.current ? document.getElementById(landing.current) : null;
    // A file's input is hidden: its Choose button operates it.
    const target =
      (landed instanceof HTMLInputElement && landed.type === 'file'
        ? document.getElementById(`${landed.id}-choose`)
        : landed) ?? heading.current;
    landing.current = null;
    if (!target) return;
    target.focus({ preventScroll: true });
    target.scrollIntoView?.({ block: 'start' });
  }, [stepIndex, generation, entered]);

  if (!step) {
    // A form without steps (the preview of a dialog's form): its questions and a submit button.
    return <SchemaForm session={session} onSubmit={onSubmit} />;
  }

  const editSection = (index: number, sectionId: string | null) => {
    landing.current = sectionId;
    session.goTo(index);
  };

  return (
    <>
      {steps.length > 1 && (
        <Stepper activeStep={stepIndex} sx={{ my: 3 }} aria-label="Registration steps">
          {steps.map((each, index) => (
            <Step key={each.id} completed={index < stepIndex}>
              <StepLabel>{each.title}</StepLabel>
            </Step>
          ))}
        </Stepper>
      )}
      <RestoredDraftNotice session={session} saver={saver} />
      {step.signaturePrompt && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {step.signaturePrompt}
        </Alert>
      )}
      <Slide
        key={`${generation}-${stepIndex}`}
        in
        appear={moved}
        direction="left"
        timeout={SLIDE_MS}
      >
        <Box>
          <Typography
            ref={heading}
            id={`step-${step.id}-title`}
            component="h2"
            variant="h5"
            tabIndex={-1}
            sx={{ mb: 1, scrollMarginTop: 16, '&:focus': { outline: 'none' } }}
          >
            {step.title}
          </Typography>
          {step.description && (
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {step.description}
            </Typography>
          )}
          {step.review ? (
            <ReviewStep
              session={session}
              failureAlert={failureAlert}
              onEdit={editSection}
              onSubmit={() => void session.submit(onSubmit)}
              saver={saver}
            />
          ) : (
            <Box
              sx={{
                display: 'flex',
                gap: 4,
                alignItems: 'flex-start',
                // One column on a narrow screen: the questions take its width, the sections'
                // progress follows them.
                [BELOW_DESKTOP]: { flexDirection: 'column', alignItems: 'stretch' },
              }}
            >
              <Box sx={{ flex: '1 1 auto', minWidth: 0 }}>
                <SchemaForm session={session} onSubmit={onSubmit}>
                  <WizardButtons
                    session={session}
                    saver={saver}
                    failureAlert={session.isLastStep() ? failureAlert : undefined}
                  />
                </SchemaForm>
              </Box>
              <Box
                component="aside"
                aria-label="Progress"
                sx={{
                  flex: `0 0 ${ASIDE_WIDTH}px`,
                  position: 'sticky',
                  top: 16,
                  maxHeight: 'calc(100vh - 32px)',
                  overflowY: 'auto',
                  [BELOW_DESKTOP]: { flex: 'none', position: 'static', maxHeight: 'none' },
                }}
              >
                <SectionProgress session={session} />
                <ErrorSummary session={session} />
              </Box>
            </Box>
          )}
        </Box>
      </Slide>
    </>
  );
}

/**
 * The server's refusal of a submission (a 422's messages by answer) handed to the session: each
 * message shows at its question as the browser's own check would, and counts as an answer to fix,
 * until that answer changes (issue 37 §3).
 */
function useServerRefusals(session: FormSession, fieldErrors: ErrorSchema<Answers> | undefined) {
  useEffect(() => {
    if (fieldErrors) session.refuseAnswers(fromErrorSchema(fieldErrors));
  }, [session, fieldErrors]);
}

/**
 * Keeps the step in the address (`?step=<id>`, none on the first): a step change pushes an
 * entry, the browser's Back and Forward move the session. A step the answers have not reached
 * (Forward after Reset, an address typed by hand) shows the first step that needs answers.
 */
function useStepHistory(session: FormSession) {
  const location = useLocation();
  const navigate = useNavigate();
  const steps = session.steps;

  useEffect(() => {
    if (!steps) return;
    const sync = (replace: boolean) => {
      const step = steps[session.stepIndex.get()];
      const wanted = session.stepIndex.get() === 0 || !step ? '' : `?step=${step.id}`;
      // The address as it is now (this runs from the session's store, outside render).
      const params = new URLSearchParams(window.location.search);
      const current = params.get('step') ? `?step=${params.get('step')}` : '';
      if (current !== wanted) void navigate({ search: wanted }, { replace });
    };
    // The address says the step the first draw shows (where an application was left) once that
    // draw is painted: written at once, the router's navigation (the history entry replaced, the
    // route tree drawn again in a transition) ran right after the first draw, ahead of whatever
    // waited for its paint (issue 29 §2).
    const cancel = afterNextPaint(() => sync(true));
    const stop = session.stepIndex.subscribe(() => sync(false));
    return () => {
      cancel();
      stop();
    };
  }, [session, steps, navigate]);

  // The step an address names, followed (never past a step whose answers do not pass).
  const follow = useCallback(
    (search: string) => {
      if (!steps) return;
      const id = new URLSearchParams(search).get('step');
      const wanted = Math.max(
        0,
        steps.findIndex((step) => step.id === id),
      );
      if (wanted === session.stepIndex.get()) return;
      const blocked = session.firstInvalidStepBefore(wanted);
      if (blocked === undefined) session.goTo(wanted);
      else {
        session.goTo(blocked);
        void navigate(
          { search: blocked === 0 ? '' : `?step=${steps[blocked]!.id}` },
          { replace: true },
        );
      }
    },
    [session, steps, navigate],
  );

  // The first draw shows the session's step (where a saved application was left): the address
  // it started with is replaced, not followed. Only a change of address is followed: React may
  // run this effect again with the address unchanged (StrictMode's second mount, a tree shown
  // again), when the address it read is the first draw's, not yet the one that replaced it.
  const followed = useRef<string | null>(null);
  useEffect(() => {
    const first = followed.current === null;
    if (followed.current === location.search) return;
    followed.current = location.search;
    if (!first) follow(location.search);
  }, [location.search, follow]);

  // The browser's Back and Forward move the step at once: the router commits its location in a
  // transition, which a busy form page can hold back (the address moved, the step did not).
  useEffect(() => {
    const onPopState = () => follow(window.location.search);
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [follow]);
}

/** Reset Form, Back and the step's next button (a submit button: Enter in a field moves on too). */
function WizardButtons({
  session,
  onSubmit,
  failureAlert,
  saver,
  onGoToStep,
}: {
  session: FormSession;
  /** On the review step: submits (there is no rjsf form to submit). */
  onSubmit?: () => void;
  failureAlert?: ReactNode;
  saver?: ServerApplication;
  /** On the review step: to the step asking an answer still needed, focus on its field. */
  onGoToStep?: (stepIndex: number, id: string) => void;
}) {
  const status = useSyncExternalStore(session.status.subscribe, session.status.get);
  const stepIndex = useSyncExternalStore(session.stepIndex.subscribe, session.stepIndex.get);
  const step = session.steps?.[stepIndex];
  return (
    <Box sx={{ mt: 3 }}>
      {failureAlert}
      {saver && <MergedNotice saver={saver} />}
      <Box
        sx={{
          display: 'flex',
          gap: 2,
          alignItems: 'center',
          // A narrow screen puts the buttons that do not fit on the next line, each whole.
          [BELOW_DESKTOP]: { flexWrap: 'wrap', '& .MuiButton-root': { whiteSpace: 'nowrap' } },
        }}
      >
        {/* Change mode keeps every other answer as submitted: nothing there to reset. */}
        {!session.changeMode && <ResetFormButton session={session} disabled={status.submitting} />}
        <Box sx={{ flex: 1 }} />
        {saver && (
          <>
            <SaveStatus saver={saver} />
            <SaveAndFinishLater session={session} saver={saver} disabled={status.submitting} />
          </>
        )}
        <Button
          type="button"
          variant="outlined"
          disabled={stepIndex === 0 || status.submitting}
          onClick={() => session.back()}
        >
          Back
        </Button>
        <Button
          type={onSubmit ? 'button' : 'submit'}
          onClick={onSubmit}
          variant="contained"
          disabled={!status.canSubmit}
          startIcon={status.submitting ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          {status.submitting ? 'Submitting' : step?.next}
        </Button>
      </Box>
      {/* Its place is kept: the count appearing or going never moves the buttons above it. */}
      <Box sx={{ mt: 1, minHeight: 24, display: 'flex', justifyContent: 'flex-end' }}>
        {!status.canSubmit && <MissingAnswers session={session} onGoToStep={onGoToStep} />}
      </Box>
    </Box>
  );
}

/**
 * The review step: the alert listing every message (the form's own, and those the server gave
 * for answers it refused, which the session holds), the review with Edit per section, Reset, Back
 * and Submit.
 */
function ReviewStep({
  session,
  failureAlert,
  onEdit,
  onSubmit,
  saver,
}: {
  session: FormSession;
  failureAlert?: ReactNode;
  onEdit: (stepIndex: number, sectionId: string | null) => void;
  onSubmit: () => void;
  saver?: ServerApplication;
}) {
  const entries = useSyncExternalStore(session.stepErrors.subscribe, session.stepErrors.get);
  const prompts = useMemo(
    () =>
      new Map(
        fieldsInOrder(session.form.schema, session.form.uiSchema).map((field) => [
          field.pointer,
          field.schema.title,
        ]),
      ),
    [session.form],
  );
  // An answer the server refused is named by its question: its message may not say which.
  const line = (entry: (typeof entries)[number]) => {
    const prompt = prompts.get(entry.pointer);
    return prompt &&
      !entry.message.startsWith(prompt) &&
      session.isServerRefusal(entry.pointer, entry.message)
      ? `${prompt}: ${entry.message}`
      : entry.message;
  };
  return (
    <Box>
      {entries.length > 0 && (
        <Alert severity="error" sx={{ mb: 2 }}>
          <AlertTitle>
            There are errors in the form. Please ensure all fields are completed correctly.
          </AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {entries.map((entry, index) => (
              <li key={`${entry.id}-${index}`}>{line(entry)}</li>
            ))}
          </Box>
        </Alert>
      )}
      <SchemaReview session={session} onEdit={onEdit} />
      <WizardButtons
        session={session}
        onSubmit={onSubmit}
        failureAlert={failureAlert}
        saver={saver}
        onGoToStep={onEdit}
      />
    </Box>
  );
}
