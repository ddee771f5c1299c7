// The person form with its precompiled validator (generated at build time).
import personForm from 'virtual:forms/person';
import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ErrorSchema } from '@rjsf/utils';
import { PERSON_PARTS, type PersonAnswer } from '../../../shared/api/auth';
import { toRjsfErrors } from '../../../shared/forms/validation/rjsfErrors';
import { emailError } from '../../../shared/rules/email';
import { useAcceptInvite } from '../../api/accept-invite';
import { ApiError } from '../../api/client';
import { signInPath } from '../../app/session';
import { SchemaForm, type Answers, type FilesByPointer } from '../../forms/SchemaForm';
import { FormSession } from '../../forms/session';
import { AuthCard } from './AuthCard';
import { SubmitWithFailure } from './SubmitWithFailure';
import { InvalidLinkCard } from './InvalidLinkCard';
import { NewPasswordFields, usePasswordPair } from './NewPasswordFields';

const INVALID_INVITE_URL_MESSAGE =
  'Invalid URL. Reach out to an admin to get a new invitation url.';

/** The server's part names (first_name, …) back to the form's answers ('/firstName'). */
const ANSWER_OF_PART = new Map(
  (Object.entries(PERSON_PARTS) as [PersonAnswer, string][]).map(([answer, part]) => [
    part,
    `/${answer}`,
  ]),
);

/** The field errors of a refused acceptance, where the form shows them. */
function serverFieldErrors(error: unknown): ErrorSchema<Answers> | undefined {
  if (!(error instanceof ApiError) || !error.errors) return undefined;
  const errors = Object.entries(error.errors).flatMap(([part, message]) => {
    const path = ANSWER_OF_PART.get(part);
    return path ? [{ path, message }] : [];
  });
  return errors.length > 0 ? toRjsfErrors(errors, personForm).errorSchema : undefined;
}

/**
 * /clearing/user/accept-invite?access_token=&organization_id=&email=: an invited person enters
 * their details, a photo ID and a password (access §3, §7).
 */
export function AcceptInvitePage() {
  const [params] = useSearchParams();
  const token = params.get('access_token');
  const organizationId = params.get('organization_id');
  const email = params.get('email');
  if (!token || !organizationId || !email) {
    return <InvalidLinkCard title="Accept Invitation" message={INVALID_INVITE_URL_MESSAGE} />;
  }
  return <AcceptInviteForm token={token} organizationId={organizationId} email={email} />;
}

function AcceptInviteForm({
  token,
  organizationId,
  email,
}: {
  token: string;
  organizationId: string;
  email: string;
}) {
  const navigate = useNavigate();
  const accept = useAcceptInvite();
  const pair = usePasswordPair({ email });
  // The page's one session: the person's answers and chosen photo. No browser draft: the page is
  // signed out and short, and a draft would outlive the single-use link.
  const [session] = useState(
    // The person form (schemas/person): the business wizard's user-step questions, which the
    // server checks again with the same form. The card's heading says what the page is.
    () => new FormSession({ form: personForm, ownHeading: true }),
  );
  const [passwordTried, setPasswordTried] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema<Answers> | undefined>();
  const emailProblem = emailError(email, { strict: true });

  const { password, valid: passwordValid } = pair;
  const onSubmit = useCallback(
    async (answers: Answers, files: FilesByPointer) => {
      setPasswordTried(true);
      const photoId = files['/photoId'];
      if (!passwordValid || emailProblem || !photoId) {
        document.querySelector<HTMLElement>('input[name="password"]')?.focus();
        // Rejecting keeps the answers and the chosen photo for the next try.
        throw new Error('The password needs attention.');
      }
      setFieldErrors(undefined);
      try {
        await accept.mutateAsync({
          token,
          organizationId,
          email,
          firstName: String(answers.firstName ?? '').trim(),
          lastName: String(answers.lastName ?? '').trim(),
          phoneNumber: String(answers.phoneNumber ?? ''),
          password,
          photoId,
        });
      } catch (error) {
        setFieldErrors(serverFieldErrors(error));
        throw error;
      }
      await navigate(signInPath('invite-accepted'), { replace: true });
    },
    [accept, email, emailProblem, navigate, organizationId, password, passwordValid, token],
  );

  return (
    <AuthCard title="Accept Invitation">
      <Typography color="text.secondary">
        You have been invited to join an organisation. Enter your details, add a photo ID and choose
        a password to accept the invitation.
      </Typography>
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        value={email}
        error={emailProblem !== null}
        helperText={emailProblem}
        slotProps={{ htmlInput: { readOnly: true, autoCapitalize: 'off' } }}
      />
      <SchemaForm session={session} keepDraft={false} extraErrors={fieldErrors} onSubmit={onSubmit}>
        {(status) => (
          <>
            <NewPasswordFields pair={pair} showErrors={status.submitAttempted || passwordTried} />
            <SubmitWithFailure
              label="Accept Invitation"
              pending={status.submitting}
              error={accept.isError ? accept.error : null}
            />
          </>
        )}
      </SchemaForm>
    </AuthCard>
  );
}
