/**
 * Development only (`npm run dev`; the route exists only when `import.meta.env.DEV`): a preview
 * for compliance staff. `/clearing/dev/forms` lists the forms; `/clearing/dev/forms/<form-id>`
 * renders one with its example answers, the validation messages of the current answers and the
 * payload they would send. Saving a schema file reloads the page with the new wording. The forms
 * are the folders of schemas/ and FORMS_DIR's (`virtual:forms`): a new folder is listed with no
 * code change (tests/e2e/forms-preview-dev.spec.ts).
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
import { formIds, formTitles, importForm } from 'virtual:forms';
import type { CompiledForm } from '../../../shared/forms/model/compiledForm';
import { PayloadError, toPayloadJson } from '../../../shared/forms/payload/payload';
import { validateAnswers } from '../../../shared/forms/validation/validateAnswers';
import { PageTitle } from '../../app/PageTitle';
import { FormWizard } from '../../forms/FormWizard';
import type { Answers } from '../../forms/SchemaForm';
import { FormSession, type SessionPersistence } from '../../forms/session';
import { isPlainObject } from '../../../shared/forms/model/schemaTypes';

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
        {formIds.map((formId) => (
          <ListItem key={formId} disableGutters>
            <Link component={RouterLink} to={`/dev/forms/${formId}`}>
              {formTitles[formId] ?? formId}
            </Link>
            &nbsp;({formId})
          </ListItem>
        ))}
      </List>
    </>
  );
}

/** The form's module (its precompiled validator), loaded as a registration page loads it. */
function useCompiledForm(formId: string): CompiledForm | undefined | Error {
  const [form, setForm] = useState<CompiledForm | Error>();
  useEffect(() => {
    let live = true;
    importForm(formId).then(
      (loaded) => live && setForm(loaded ?? new Error(`No form ${formId} under schemas/`)),
      (error: unknown) => live && setForm(error as Error),
    );
    return () => {
      live = false;
    };
  }, [formId]);
  return form;
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

function Preview({ formId }: { formId: string }) {
  const form = useCompiledForm(formId);
  if (form instanceof Error) return <Alert severity="error">{form.message}</Alert>;
  if (!form) return null;
  return <LoadedPreview form={form} />;
}

function LoadedPreview({ form }: { form: CompiledForm }) {
  const formId = form.id;
  const [answers, setAnswers] = useState<Answers>(form.example);
  const [submitted, setSubmitted] = useState(false);

  const result = useMemo(() => validateAnswers(form, answers), [form, answers]);
  const payload = useMemo(() => {
    if (!result) return null;
    try {
      return JSON.stringify(toPayloadJson(form, answers), null, 2);
    } catch (error) {
      if (error instanceof PayloadError) return `No payload: ${error.pointer}: ${error.message}`;
      throw error;
    }
  }, [result, form, answers]);

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
      {/* Side by side on a desktop; on a narrow screen the panels follow the form. */}
      <Box
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', md: 'row' },
          gap: 3,
          alignItems: { xs: 'stretch', md: 'flex-start' },
        }}
      >
        <Box sx={{ flex: '0 1 1080px', minWidth: 0 }}>
          <PreviewWizard
            form={form}
            onAnswersChange={(next) => {
              setAnswers(next);
              setSubmitted(false);
            }}
            onSubmit={() => setSubmitted(true)}
          />
        </Box>
        <Box sx={{ flex: { md: '1 1 400px' }, minWidth: 0, position: { md: 'sticky' }, top: 16 }}>
          {submitted && <Alert severity="success">Submitted (preview: nothing is sent).</Alert>}
          <Panel title="Validation">
            {result?.valid && <Typography>The answers are valid.</Typography>}
            <List dense>
              {result?.errors.map((error) => (
                // An answer may have several messages (every one that applies).
                <ListItem
                  key={`${error.path}\n${error.message}`}
                  disableGutters
                  sx={{ display: 'block', overflowWrap: 'anywhere' }}
                >
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
 * Nothing is kept; the example's files are held as chosen (the preview has no bytes of them, and
 * sends nothing).
 */
function examplePersistence(form: CompiledForm): SessionPersistence {
  return {
    load: () => undefined,
    heldFiles: () =>
      Object.entries(form.example)
        .filter(([, value]) => isPlainObject(value) && 'size' in value && 'type' in value)
        .map(([key]) => `/${key}`),
    save: () => {},
    flush: () => {},
    clear: () => {},
  };
}

/**
 * The form as the registration pages draw it (FormWizard: its steps, sections' progress, review),
 * prefilled with its example answers; nothing is kept or sent.
 */
function PreviewWizard({
  form,
  onAnswersChange,
  onSubmit,
}: {
  form: CompiledForm;
  onAnswersChange: (answers: Answers) => void;
  onSubmit: () => void;
}) {
  const [session] = useState(
    // The example as the person's own answers: Next and the review's button live at once.
    () => new FormSession({ form, given: form.example, persistence: examplePersistence(form) }),
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
  else if (formIds.includes(formId)) {
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
