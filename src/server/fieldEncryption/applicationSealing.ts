/**
 * An application's answers at rest: the answers the form marks `x-sensitive` (SSN, passport
 * number, date of birth) sealed as a registration's are, bound to `applications.answers` and
 * the application's id, so a value copied to another row or place does not open.
 */
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import type { FieldKeyRing } from './keyRing';
import { sensitiveAnswerPointers } from './registrationSealing';
import { openSealed, sealAt, type SealContext } from './sealedJson';

export const applicationContext = (applicationId: string): SealContext => ({
  column: 'applications.answers',
  row: applicationId,
});

/** The answers as stored: every sensitive one sealed under the current key. */
export function sealApplicationAnswers(
  ring: FieldKeyRing,
  form: CompiledForm,
  applicationId: string,
  answers: Answers,
): Answers {
  return sealAt(
    ring,
    answers,
    sensitiveAnswerPointers(form, answers),
    applicationContext(applicationId),
  );
}

/** Stored answers opened (throws `UnreadableFieldError` when a key is missing). */
export function openApplicationAnswers(
  ring: FieldKeyRing,
  applicationId: string,
  stored: unknown,
): Answers {
  return openSealed(ring, stored as Answers, applicationContext(applicationId));
}
