// The compiled forms with their precompiled validators (generated at build time).
import businessForm from 'virtual:forms/business';
import individualForm from 'virtual:forms/individual';
import { useEffect, useMemo, useState } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { errorMessageOf } from '../../api/client';
import { currentUserQueryKey } from '../../api/get-current-user';
import { useApplication } from '../../api/applications';
import { registrationOverviewQueryKey } from '../../api/get-registration';
import { submitBusinessRegistration } from '../../api/submit-business-registration';
import { submitIndividualRegistration } from '../../api/submit-individual-registration';
import { ChangeMode } from '../../forms/changeMode';
import { PageTitle } from '../../app/PageTitle';
import { registrationForm, type ChangesStart } from './registrationSession';
import { RegistrationPage } from './RegistrationPage';
import { firstInFormOrder, stepOf } from './ChangesRequestedIntro';

/** The registration forms a change request may reopen, by form id. */
const FORMS = {
  individual: {
    form: registrationForm(individualForm),
    pageTitle: 'Individual Registration',
    send: submitIndividualRegistration,
  },
  business: {
    form: registrationForm(businessForm),
    pageTitle: 'Business Registration',
    send: submitBusinessRegistration,
    validationDelayMs: 400,
  },
} as const;

/**
 * /clearing/registration/<formId>/changes (issue 17): the submitted registration reopened from
 * the application a change request made of it, in change mode: the marked questions editable,
 * outlined with the reviewer's notes, the rest read-only; Submit resubmits.
 */
export function ChangesRequestedPage() {
  const { formId = '' } = useParams();
  const entry = formId in FORMS ? FORMS[formId as keyof typeof FORMS] : undefined;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // Asked once for this visit: the page the form opens in is handed the answer.
  const application = useApplication(formId, !!entry);
  const view = entry ? application.data : undefined;
  const changes = useMemo<ChangesStart | undefined>(() => {
    if (!entry || view?.status !== 'changes_requested' || !view.changeRequest) return undefined;
    return {
      answers: view.answers,
      changeMode: new ChangeMode(
        entry.form.compiled,
        view.changeRequest.submitted,
        view.changeRequest.note || null,
        view.changeRequest.fields,
      ),
      startStep: stepOf(
        entry.form.compiled.steps,
        firstInFormOrder(
          entry.form.compiled.steps,
          view.changeRequest.fields.map((field) => field.path),
        ) ?? '',
      ),
    };
  }, [entry, view]);
  const [search] = useSearchParams();
  // The wizard opens at the step the address names: first the first requested change's (once;
  // afterwards the wizard keeps the step in the address as the applicant moves).
  const [opened, setOpened] = useState(false);
  const startId = changes && entry?.form.compiled.steps?.[changes.startStep]?.id;
  const wantedSearch = startId && changes.startStep > 0 ? startId : null;
  const atStart = !!changes && (!wantedSearch || search.get('step') === wantedSearch);
  // Adjusted while rendering (React's pattern for state derived from a change): once at the
  // start, the form opens and stays open whatever step the applicant moves to.
  if (atStart && !opened) setOpened(true);
  useEffect(() => {
    if (changes && !opened && !atStart && wantedSearch) {
      void navigate({ search: `?step=${wantedSearch}` }, { replace: true });
    }
  }, [changes, opened, atStart, wantedSearch, navigate]);

  if (!entry) return <Navigate to="/home" replace />;
  if (application.isError) {
    return (
      <Container maxWidth="md" sx={{ py: 5 }}>
        <PageTitle title={entry.pageTitle} />
        <Alert severity="error">
          Your application could not be loaded. {errorMessageOf(application.error)}
        </Alert>
      </Container>
    );
  }
  const loading = (
    <Container maxWidth="md" sx={{ py: 5 }}>
      <PageTitle title={entry.pageTitle} />
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
        <CircularProgress size={20} aria-hidden="true" />
        <Typography>Loading your application…</Typography>
      </Stack>
    </Container>
  );
  if (application.isPending) return loading;
  // Nothing to change (already resubmitted, or decided): home says where it stands.
  if (!changes) return <Navigate to="/home" replace />;
  // The wizard opens at the step the address names: the first requested change's.
  if (!opened) return loading;
  return (
    <RegistrationPage
      registration={{
        form: entry.form,
        pageTitle: entry.pageTitle,
        send: entry.send,
        changes,
        application: view ?? null,
        ...('validationDelayMs' in entry ? { validationDelayMs: entry.validationDelayMs } : {}),
        submitted: {
          title: 'Changes Sent',
          text: 'Thank you. We have your changes and will review your application again. We will let you know once it has been reviewed.',
          button: 'Continue',
          onDone: async () => {
            await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
            await queryClient.invalidateQueries({ queryKey: registrationOverviewQueryKey });
            await navigate('/home', { replace: true });
          },
        },
      }}
    />
  );
}
