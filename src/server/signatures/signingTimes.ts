/**
 * When each agreement was signed, as the server saw it (issue 26): the time of the first save of
 * the application that carried the agreement signed. The browser saves a second after the
 * Electronically Sign press, so this is the press give or take that second and the network,
 * on the server's clock (a browser's clock is not evidence). A signature removed loses its time;
 * signed again, it takes the new one.
 */
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { isPlainObject, type Answers } from '../../shared/forms/model/schemaTypes';
import { signedDocuments } from '../../shared/forms/payload/payload';
import { fromPointer } from '../../shared/forms/model/pointer';

/** By the agreement's pointer (`/agreeTermsOfService`): when it was signed, ISO 8601. */
type AgreementsSignedAt = Record<string, string>;

function answerAt(answers: Answers, pointer: string): unknown {
  let node: unknown = answers;
  for (const key of fromPointer(pointer)) node = isPlainObject(node) ? node[key] : undefined;
  return node;
}

/** The signing times after a save of `answers`: kept for agreements still signed, now for new. */
export function agreementsSignedAt(
  form: CompiledForm,
  answers: Answers,
  before: AgreementsSignedAt,
  now: Date = new Date(),
): AgreementsSignedAt {
  const out: AgreementsSignedAt = {};
  for (const document of signedDocuments(form)) {
    // A step's signature ('' pointer) is signed by submitting: its time is the submission's.
    if (document.pointer === '' || answerAt(answers, document.pointer) !== true) continue;
    out[document.pointer] = before[document.pointer] ?? now.toISOString();
  }
  return out;
}
