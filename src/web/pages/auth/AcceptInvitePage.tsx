import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { isValidPhoneNumber } from 'libphonenumber-js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SIGN_IN_NOTICES } from '../../../shared/api/signInNotices';
import { emailError } from '../../../shared/rules/email';
import { useAcceptInvite } from '../../api/accept-invite';
import { ApiError } from '../../api/client';
import { signInPath } from '../../app/session';
import { formatFileSize, formatPhone } from '../../forms/format';
import { AuthCard } from './AuthCard';
import { IMAGE_ACCEPT } from '../../forms/widgets/ImageUploadWidget';
import { SubmitWithFailure } from './SubmitWithFailure';
import { InvalidLinkCard } from './InvalidLinkCard';
import { NewPasswordFields, usePasswordPair } from './NewPasswordFields';

export const INVALID_INVITE_URL_MESSAGE =
  'Invalid URL. Reach out to an admin to get a new invitation url.';
/** The sign-in toast after a successful acceptance (the wording is ours; the spec has none). */
export const INVITE_ACCEPTED_MESSAGE = SIGN_IN_NOTICES['invite-accepted'];
/** Field messages: business §5.1 words them for the same person fields. */
export const ACCEPT_INVITE_MESSAGES = {
  firstName: 'Must provide first name',
  lastName: 'Must provide last name',
  phoneRequired: 'Enter phone number',
  phoneInvalid: 'Invalid phone number',
  photoId: 'Must provide Government Id',
} as const;

const PHONE_PLACEHOLDER = '+1 123 456 7890';
/** The server's limit on a name (src/server/auth/personFields.ts). */
const MAX_NAME = 100;

type Field = 'firstName' | 'lastName' | 'phoneNumber' | 'photoId';
/** Server field names (multipart) mapped to the page's fields, for field errors in a 400. */
const SERVER_FIELDS: Record<string, Field> = {
  first_name: 'firstName',
  last_name: 'lastName',
  phone_number: 'phoneNumber',
  photo_id: 'photoId',
};

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
  const pair = usePasswordPair();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [phone, setPhone] = useState(() => formatPhone(''));
  const [photo, setPhoto] = useState<File | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const emailProblem = emailError(email, { strict: true });
  const errors: Record<Field, string | null> = {
    firstName: firstName.trim() ? null : ACCEPT_INVITE_MESSAGES.firstName,
    lastName: lastName.trim() ? null : ACCEPT_INVITE_MESSAGES.lastName,
    phoneNumber: !phone.value
      ? ACCEPT_INVITE_MESSAGES.phoneRequired
      : isValidPhoneNumber(phone.value)
        ? null
        : ACCEPT_INVITE_MESSAGES.phoneInvalid,
    photoId: photo ? null : ACCEPT_INVITE_MESSAGES.photoId,
  };
  /** The message under a field: ours once submitted or left, else what the server said. */
  const shown = (field: Field): string | null =>
    ((submitted || touched[field]) && errors[field]) || serverErrors[field] || null;
  const leave = (field: Field) => () => setTouched((t) => ({ ...t, [field]: true }));
  const changed = (field: Field) =>
    setServerErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));

  function choosePhoto(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared so choosing the same file again still fires a change.
    event.target.value = '';
    if (!file) return;
    setPhoto(file);
    changed('photoId');
    setTouched((t) => ({ ...t, photoId: true }));
  }

  /** Moves focus to the first field with a problem, in page order. */
  function focusFirstProblem() {
    const selectors: [boolean, string][] = [
      [errors.firstName !== null, 'input[name="first_name"]'],
      [errors.lastName !== null, 'input[name="last_name"]'],
      [errors.phoneNumber !== null, 'input[name="phone_number"]'],
      [errors.photoId !== null, '#photo-id-choose'],
      [pair.errors.password !== null, 'input[name="password"]'],
      [pair.errors.confirm !== null, 'input[name="confirmPassword"]'],
    ];
    const selector = selectors.find(([problem]) => problem)?.[1];
    if (selector) formRef.current?.querySelector<HTMLElement>(selector)?.focus();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const invalid = emailProblem || !pair.valid || Object.values(errors).some(Boolean);
    if (invalid || !photo || !phone.value) {
      focusFirstProblem();
      return;
    }
    setServerErrors({});
    accept.mutate(
      {
        token,
        organizationId,
        email,
        firstName: firstName.trim(),
        lastName: lastName.trim(),
        phoneNumber: phone.value,
        password: pair.password,
        photoId: photo,
      },
      {
        onSuccess: () => void navigate(signInPath('invite-accepted'), { replace: true }),
        onError: (error) => {
          if (!(error instanceof ApiError) || !error.errors) return;
          const mapped: Partial<Record<Field, string>> = {};
          for (const [key, message] of Object.entries(error.errors)) {
            const field = SERVER_FIELDS[key];
            if (field) mapped[field] = message;
          }
          setServerErrors(mapped);
        },
      },
    );
  }

  const photoError = shown('photoId');
  const photoDescribedBy = [
    'photo-id-hint',
    photo && 'photo-id-chosen',
    photoError && 'photo-id-error',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <AuthCard title="Accept Invitation">
      <Typography color="text.secondary">
        You have been invited to join an organisation. Enter your details, add a photo ID and choose
        a password to accept the invitation.
      </Typography>
      <form ref={formRef} noValidate onSubmit={onSubmit}>
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
        <TextField
          label="First Name"
          name="first_name"
          autoComplete="given-name"
          value={firstName}
          onChange={(event) => {
            setFirstName(event.target.value);
            changed('firstName');
          }}
          onBlur={leave('firstName')}
          error={shown('firstName') !== null}
          helperText={shown('firstName')}
          slotProps={{ htmlInput: { maxLength: MAX_NAME } }}
          required
        />
        <TextField
          label="Last Name"
          name="last_name"
          autoComplete="family-name"
          value={lastName}
          onChange={(event) => {
            setLastName(event.target.value);
            changed('lastName');
          }}
          onBlur={leave('lastName')}
          error={shown('lastName') !== null}
          helperText={shown('lastName')}
          slotProps={{ htmlInput: { maxLength: MAX_NAME } }}
          required
        />
        <TextField
          label="Phone Number"
          type="tel"
          name="phone_number"
          autoComplete="tel"
          placeholder={PHONE_PLACEHOLDER}
          value={phone.text}
          onChange={(event) => {
            setPhone(formatPhone(event.target.value));
            changed('phoneNumber');
          }}
          onBlur={leave('phoneNumber')}
          error={shown('phoneNumber') !== null}
          helperText={shown('phoneNumber')}
          slotProps={{ htmlInput: { inputMode: 'tel', maxLength: 250 } }}
          required
        />
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, mt: 2, mb: 1 }}>
          <FormLabel id="photo-id-label" htmlFor="photo-id" required error={photoError !== null}>
            Photo ID
          </FormLabel>
          <Typography id="photo-id-hint" variant="body2" color="text.secondary">
            An image of your government-issued ID.
          </Typography>
          <input
            ref={fileInput}
            id="photo-id"
            name="photo_id"
            type="file"
            accept={IMAGE_ACCEPT}
            hidden
            tabIndex={-1}
            onChange={choosePhoto}
          />
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            <Button
              id="photo-id-choose"
              variant="outlined"
              color={photoError ? 'error' : 'primary'}
              onClick={() => fileInput.current?.click()}
              aria-labelledby="photo-id-choose photo-id-label"
              aria-describedby={photoDescribedBy}
            >
              {photo ? 'Replace image' : 'Choose image'}
            </Button>
            {photo && (
              <Typography id="photo-id-chosen" variant="body2" sx={{ wordBreak: 'break-all' }}>
                {photo.name} ({formatFileSize(photo.size)})
              </Typography>
            )}
          </Box>
          {photoError && (
            <FormHelperText id="photo-id-error" error sx={{ mx: 0 }}>
              {photoError}
            </FormHelperText>
          )}
        </Box>
        <NewPasswordFields pair={pair} showErrors={submitted} />
        <SubmitWithFailure
          label="Accept Invitation"
          pending={accept.isPending}
          error={accept.isError ? accept.error : null}
        />
      </form>
    </AuthCard>
  );
}
