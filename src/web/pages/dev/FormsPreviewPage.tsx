/**
 * Development only (`npm run dev`; the route exists only when `import.meta.env.DEV`): a preview
 * for compliance staff. `/clearing/dev/forms` lists the forms; `/clearing/dev/forms/<form-id>`
 * renders one with its example answers, the validation messages of the current answers and the
 * payload they would send. Saving a schema file reloads the page with the new wording.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { availableFormIds, isFormId, loadForm } from '../../../shared/forms/loadForm';
import { PayloadError, toPayloadJson } from '../../../shared/forms/payload';
import { createRjsfValidator } from '../../../shared/forms/rjsfErrors';
import type { FormId } from '../../../shared/forms/types';
import { validateAnswers } from '../../../shared/forms/validateAnswers';
import type { FormValidator } from '../../../shared/forms/validators';
import { PageTitle } from '../../app/PageTitle';
import { FormWizard } from '../../forms/FormWizard';
import type { Answers } from '../../forms/SchemaForm';
import { FormSession } from '../../forms/session';

/**
 * The precompiled validators, as the registration pages load them. Virtual module ids must be
 * literal, so a new form adds its line here.
 */
const PRECOMPILED: Partial<Record<FormId, () => Promise<unknown>>> = {
  individual: () => import('virtual:form-validators/individual'),
  business: () => import('virtual:form-validators/business'),
  'affiliated-person': () => import('virtual:form-validators/affiliated-person'),
};

function FormList() {
  return (
    <>
      <Typography variant="h5" component="h1" gutterBottom>
        Form preview
      </Typography>
      <Typography>
        Each form as users see it, prefilled with its example answers. Edit a file in schemas/ and
        save it: the page reloads with the change.
      </Typography>
      <List>
        {availableFormIds().map((formId) => (
          <ListItem key={formId} disableGutters>
            <Link component={RouterLink} to={`/dev/forms/${formId}`}>
              {loadForm(formId).schema.title ?? formId}
            </Link>
            &nbsp;({formId})
          </ListItem>
        ))}
      </List>
    </>
  );
}

function useValidator(formId: FormId): FormValidator | undefined | Error {
  const [validator, setValidator] = useState<FormValidator | Error>();
  useEffect(() => {
    let live = true;
    const load = PRECOMPILED[formId];
    const loaded = load
      ? load().then(() => createRjsfValidator(formId))
      : Promise.reject(new Error(`No precompiled validator is listed for ${formId}`));
    loaded.then(
      (created) => live && setValidator(created),
      (error: unknown) => live && setValidator(error as Error),
    );
    return () => {
      live = false;
    };
  }, [formId]);
  return validator;
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} component="section" aria-label={title}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Preview({ formId }: { formId: FormId }) {
  const form = loadForm(formId);
  const validator = useValidator(formId);
  const [answers, setAnswers] = useState<Answers>(form.example);
  const [submitted, setSubmitted] = useState(false);

  const result = useMemo(
    () => (validator && !(validator instanceof Error) ? validateAnswers(formId, answers) : null),
    [validator, formId, answers],
  );
  const payload = useMemo(() => {
    if (!result) return null;
    try {
      return JSON.stringify(toPayloadJson(formId, answers), null, 2);
    } catch (error) {
      if (error instanceof PayloadError) return `No payload: ${error.pointer}: ${error.message}`;
      throw error;
    }
  }, [result, formId, answers]);

  if (validator instanceof Error) return <Alert severity="error">{validator.message}</Alert>;
  return (
    <>
      <Typography variant="h5" component="h1">
        {form.schema.title ?? formId}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        Form <code>{formId}</code>, schema version <code>{form.hash.slice(0, 12)}</code> ·{' '}
        <Link component={RouterLink} to="/dev/forms">
          all forms
        </Link>
      </Typography>
      <Box sx={{ display: 'flex', gap: 3, alignItems: 'flex-start' }}>
        <Box sx={{ flex: '0 1 1080px', minWidth: 0 }}>
          {validator && (
            <PreviewWizard
              formId={formId}
              validator={validator}
              onAnswersChange={(next) => {
                setAnswers(next);
                setSubmitted(false);
              }}
              onSubmit={() => setSubmitted(true)}
            />
          )}
        </Box>
        <Box sx={{ flex: '1 1 400px', minWidth: 0, position: 'sticky', top: 16 }}>
          {submitted && <Alert severity="success">Submitted (preview: nothing is sent).</Alert>}
          <Panel title="Validation">
            {result?.valid && <Typography>The answers are valid.</Typography>}
            <List dense>
              {result?.errors.map((error) => (
                <ListItem key={error.path} disableGutters>
                  <code>{error.path || '(form)'}</code>&nbsp;{error.message}
                </ListItem>
              ))}
            </List>
          </Panel>
          <Panel title="Payload">
            <Box
              component="pre"
              sx={{ m: 0, maxHeight: '60vh', overflow: 'auto', fontSize: 12 }}
              tabIndex={0}
            >
              {payload}
            </Box>
          </Panel>
        </Box>
      </Box>
    </>
  );
}

/**
 * The form as the registration pages draw it (FormWizard: its steps, sections' progress, review),
 * prefilled with its example answers; nothing is kept or sent.
 */
function PreviewWizard({
  formId,
  validator,
  onAnswersChange,
  onSubmit,
}: {
  formId: FormId;
  validator: FormValidator;
  onAnswersChange: (answers: Answers) => void;
  onSubmit: () => void;
}) {
  const form = loadForm(formId);
  const [session] = useState(
    () =>
      new FormSession({
        formId: `preview.${formId}`,
        schema: form.schema as RJSFSchema,
        uiSchema: form.uiSchema as UiSchema,
        validator,
        initial: form.example,
      }),
  );
  const latest = useRef(onAnswersChange);
  useEffect(() => {
    latest.current = onAnswersChange;
  });
  useEffect(
    () => session.engine.answers.subscribe(() => latest.current(session.answers())),
    [session],
  );
  return <FormWizard session={session} onSubmit={onSubmit} />;
}

export function FormsPreviewPage() {
  const { formId } = useParams();
  let content;
  if (!formId) content = <FormList />;
  else if (isFormId(formId) && availableFormIds().includes(formId)) {
    content = <Preview key={formId} formId={formId} />;
  } else {
    content = (
      <>
        <Alert severity="warning">Unknown form “{formId}”.</Alert>
        <FormList />
      </>
    );
  }
  return (
    <Container maxWidth="xl" sx={{ py: 3 }}>
      <PageTitle title="Form preview" />
      {content}
    </Container>
  );
}
