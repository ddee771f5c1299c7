import { useCallback, useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import type { ErrorSchema } from '@rjsf/utils';
import { signedDocuments, toPayload } from '../../../shared/forms/payload/payload';
import { toRjsfErrors } from '../../../shared/forms/validation/rjsfErrors';
import type { CompiledForm } from '../../../shared/forms/model/compiledForm';
import { ApiError } from '../../api/client';
import { fetchSignedDocuments } from '../../api/submit-registration';
import { useEsignConsentGate } from '../../forms/esignConsent/EsignConsentProvider';
import type { Answers, FilesByPointer } from '../../forms/SchemaForm';
import { SupportHint } from '../auth/SupportHint';
import { forgetAccountType } from './RegistrationChoicePage';
import { registrationFailure, type RegistrationFailure } from './registrationFailure';

/**
 * Server field errors ({pointer: message}, an answer's several messages on lines of their own) in
 * the shape rjsf shows beside the fields.
 */
function serverFieldErrors(form: CompiledForm, error: unknown): ErrorSchema<Answers> | undefined {
  if (!(error instanceof ApiError) || !error.errors) return undefined;
  const errors = Object.entries(error.errors).flatMap(([path, messages]) =>
    messages.split('\n').map((message) => ({ path, message })),
  );
  return toRjsfErrors(errors, form).errorSchema;
}

/**
 * The submit flow every registration form shares: the signed documents fetched, the prompt+value
 * payload built from the schema, sent with `send`; on failure (a refusal, or no answer at all)
 * the alert's message and the server's field errors, on success `submitted` (the page opens its
 * confirmation). The session keeps every answer and file through a failure.
 */
export function useRegistrationSubmit(
  form: CompiledForm,
  send: (payload: FormData) => Promise<unknown>,
) {
  const [failure, setFailure] = useState<RegistrationFailure | null>(null);
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema<Answers> | undefined>();
  const [submitted, setSubmitted] = useState(false);
  const consent = useEsignConsentGate();

  const onSubmit = useCallback(
    async (answers: Answers, files: FilesByPointer, held?: ReadonlySet<string>) => {
      setFailure(null);
      setFieldErrors(undefined);
      try {
        const urls = signedDocuments(form).map((document) => document.url);
        const documents = await fetchSignedDocuments(urls);
        await send(toPayload(form, answers, files, documents, held));
        forgetAccountType();
        setSubmitted(true);
      } catch (error) {
        setFailure(registrationFailure(error));
        setFieldErrors(serverFieldErrors(form, error));
        // Refused for want of a (current) e-sign consent: the next signature asks for it again.
        if (error instanceof ApiError && error.status === 409) consent?.forget();
        // Rejecting keeps the draft; the alert above the button says what went wrong.
        throw error;
      }
    },
    [form, send, consent],
  );

  return { failure, fieldErrors, submitted, onSubmit };
}

/**
 * 'Registration Failed' with the reason and the support contact (spec §8); when sending the same
 * answers again may work (the connection failed, the server was busy), a Try again button that
 * does so.
 */
export function RegistrationFailureAlert({
  failure,
  onRetry,
}: {
  failure: RegistrationFailure | null;
  onRetry: () => void;
}) {
  if (!failure) return null;
  return (
    <Alert
      severity="error"
      sx={{ mb: 2 }}
      action={
        failure.retryable ? (
          <Button color="inherit" size="small" onClick={onRetry} sx={{ whiteSpace: 'nowrap' }}>
            Try again
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>Registration Failed</AlertTitle>
      {failure.message}
      <SupportHint />
    </Alert>
  );
}
