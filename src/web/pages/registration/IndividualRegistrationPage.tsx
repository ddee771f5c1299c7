// Registers the precompiled validator of the individual form (generated at build time).
import 'virtual:form-validators/individual';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import { loadForm } from '../../../shared/forms/loadForm';
import { signedDocuments, toPayload } from '../../../shared/forms/payload';
import { createRjsfValidator, toRjsfErrors } from '../../../shared/forms/rjsfErrors';
import { ApiError } from '../../api/client';
import { currentUserQueryKey, useCurrentUser } from '../../api/get-current-user';
import {
  fetchSignedDocuments,
  submitIndividualRegistration,
} from '../../api/submit-individual-registration';
import { PageTitle } from '../../app/PageTitle';
import { SchemaForm, type Answers, type FilesByPointer } from '../../forms/SchemaForm';
import { SupportHint } from '../auth/SupportHint';
import { forgetAccountType } from './RegistrationChoicePage';
import { registrationFailureMessage } from './registrationFailure';

const FORM_ID = 'individual';
// Stable objects: rjsf re-renders less when schema and uiSchema never change identity.
const form = loadForm(FORM_ID);
const schema = form.schema as RJSFSchema;
// The page shows the form's title and description as its heading; rjsf need not repeat them.
const uiSchema = {
  ...form.uiSchema,
  'ui:options': { ...(form.uiSchema['ui:options'] as object | undefined), label: false },
};
const validator = createRjsfValidator(FORM_ID);
const documentUrls = signedDocuments(FORM_ID).map((document) => document.url);

/** Server field errors ({pointer: message}) in the shape rjsf shows beside the fields. */
function serverFieldErrors(error: unknown): ErrorSchema<Answers> | undefined {
  if (!(error instanceof ApiError) || !error.errors) return undefined;
  const errors = Object.entries(error.errors).map(([path, message]) => ({ path, message }));
  return toRjsfErrors(errors, FORM_ID).errorSchema;
}

/**
 * /clearing/registration/individual: the single-page individual form, drawn from
 * schemas/individual by SchemaForm and sent as the prompt+value multipart payload.
 */
export function IndividualRegistrationPage() {
  const { data: user } = useCurrentUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema<Answers> | undefined>();
  const [submitted, setSubmitted] = useState(false);
  // The email is the signed-in user's and cannot be changed (read-only in the uiSchema).
  const [initialAnswers] = useState<Answers>(() => ({ primaryEmailAddress: user?.email ?? '' }));

  async function onSubmit(answers: Answers, files: FilesByPointer) {
    setFailure(null);
    setFieldErrors(undefined);
    try {
      const documents = await fetchSignedDocuments(documentUrls);
      const payload = toPayload(FORM_ID, answers, files, documents);
      await submitIndividualRegistration(payload);
      forgetAccountType();
      setSubmitted(true);
    } catch (error) {
      setFailure(registrationFailureMessage(error));
      setFieldErrors(serverFieldErrors(error));
      // Rejecting keeps the draft; the alert above the button says what went wrong.
      throw error;
    }
  }

  async function goHome() {
    // Only now learn the new details: the guards then send the user home, not back here.
    await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    await navigate('/home', { replace: true });
  }

  return (
    // Not MUI's 'lg' (1,200 px): the form is about 800 px wide (spec §9), inside the page's padding.
    <Container maxWidth={false} sx={{ maxWidth: 880, py: 5 }} disableGutters>
      <PageTitle title="Individual Registration" />
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 } }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography variant="h1" gutterBottom>
            {schema.title}
          </Typography>
          <Link component={RouterLink} to="/registration?returned=1">
            Not an individual?
          </Link>
        </Box>
        {schema.description && (
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {schema.description}
          </Typography>
        )}
        <SchemaForm
          formId={FORM_ID}
          schema={schema}
          uiSchema={uiSchema}
          validator={validator}
          formData={initialAnswers}
          extraErrors={fieldErrors}
          onSubmit={onSubmit}
        >
          {(status) => (
            <Box sx={{ mt: 3 }}>
              {failure && (
                <Alert severity="error" sx={{ mb: 2 }}>
                  <AlertTitle>Registration Failed</AlertTitle>
                  {failure}
                  <SupportHint />
                </Alert>
              )}
              <Button
                type="submit"
                variant="contained"
                size="large"
                fullWidth
                disabled={!status.canSubmit}
                startIcon={
                  status.submitting ? <CircularProgress size={18} color="inherit" /> : undefined
                }
              >
                {status.submitting ? 'Submitting' : 'Submit Registration'}
              </Button>
            </Box>
          )}
        </SchemaForm>
      </Paper>
      <Dialog open={submitted} aria-labelledby="registration-submitted-title">
        <DialogTitle id="registration-submitted-title">Registration Submitted</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Thank you. Your registration has been received and is awaiting review. We will let you
            know once it has been reviewed.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          {/* Focus the way on, so Enter continues (MUI would focus the dialog's container). */}
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog's first action, as ARIA's dialog pattern asks */}
          <Button variant="contained" autoFocus onClick={() => void goHome()}>
            Continue
          </Button>
        </DialogActions>
      </Dialog>
    </Container>
  );
}
