/**
 * `x-prefill`: answers the portal knows before the user types them (the signed-in email). The
 * browser shows them (read-only where the schema says `readOnly`); the server puts them in again
 * over whatever arrived, so a read-only answer is always the signed-in user's.
 */
import type { CompiledForm } from './compiledForm';
import { fieldsInOrder } from '../walk/schemaWalk';
import type { Answers } from './schemaTypes';

/** What a prefill may come from: the signed-in user. */
interface PrefillSource {
  email: string;
}

/** The value an `x-prefill` source names (`user.email`), or undefined for an unknown source. */
export function prefillValue(source: string, user: PrefillSource): string | undefined {
  return source === 'user.email' ? user.email : undefined;
}

/** The top-level fields a form prefills, with their source and whether the user may change them. */
function prefilledFields(form: CompiledForm): { key: string; source: string; readOnly: boolean }[] {
  return fieldsInOrder(form.schema, form.uiSchema)
    .filter((field) => field.keys.length === 1 && typeof field.schema['x-prefill'] === 'string')
    .map((field) => ({
      key: field.keys[0]!,
      source: field.schema['x-prefill']!,
      readOnly: field.schema.readOnly === true,
    }));
}

/**
 * The answers a form starts with for this user: `{email: 'jane@example.com'}` for the business
 * form. Merge them over a restored draft (`{...draft, ...prefillAnswers(…)}`).
 */
export function prefillAnswers(form: CompiledForm, user: PrefillSource): Answers {
  const out: Answers = {};
  for (const field of prefilledFields(form)) {
    const value = prefillValue(field.source, user);
    if (value !== undefined) out[field.key] = value;
  }
  return out;
}

/** The answers with every read-only prefilled answer set from the user (server side). */
export function withReadOnlyPrefill(
  form: CompiledForm,
  answers: Answers,
  user: PrefillSource,
): Answers {
  const out = { ...answers };
  for (const field of prefilledFields(form)) {
    const value = prefillValue(field.source, user);
    if (field.readOnly && value !== undefined) out[field.key] = value;
  }
  return out;
}
