import { use, useMemo } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
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
import { submitRegistration } from '../../api/submit-registration';
import { ChangeMode } from '../../forms/changeModeModel';
import { registrationKind, type RegistrationKind } from '../../forms/registrationForms';
import { PageTitle } from '../../app/PageTitle';
import { loadRegistration, type ChangesStart, type RegistrationForm } from './registrationSession';
import { RegistrationPage, UnavailableForm } from './RegistrationPage';
import { firstInFormOrder, stepOf } from './ChangesRequestedIntro';
import { NotFoundPage } from '../errors/NotFoundPage';

/**
 * /clearing/registration/<formId>/changes (issue 17): the submitted registration reopened from
 * the application a change request made of it, in change mode: the marked questions editable,
 * outlined with the reviewer's notes, the rest read-only; Submit resubmits.
 */
export function ChangesRequestedPage() {
  const { formId = '' } = useParams();
  const kind = registrationKind(formId);
  if (!kind) return <NotFoundPage />;
  return <ChangesOf key={kind.id} kind={kind} />;
}

function ChangesOf({ kind }: { kind: RegistrationKind }) {
  const form = use(loadRegistration(kind.id));
  if (!form) return <UnavailableForm title={kind.page.title} />;
  return <ChangesRequested kind={kind} form={form} />;
}

function ChangesRequested({ kind, form }: { kind: RegistrationKind; form: RegistrationForm }) {
  const formId = kind.id;
  const entry = { form, pageTitle: kind.page.title };
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // Asked once for this visit: the page the form opens in is handed the answer.
  const application = useApplication(formId);
  const view = application.data;
  const changes = useMemo<ChangesStart | undefined>(() => {
    if (view?.status !== 'changes_requested' || !view.changeRequest) return undefined;
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
  }, [entry.form.compiled, view]);
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
  // The wizard opens at the first requested change's step (`openAt`) and writes it in the
  // address as it first draws, whatever step the address named.
  return (
    <RegistrationPage
      registration={{
        form: entry.form,
        pageTitle: entry.pageTitle,
        send: (payload) => submitRegistration(formId, payload),
        changes,
        application: view ?? null,
        validationDelayMs: kind.page.validationDelayMs,
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
