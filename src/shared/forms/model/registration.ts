/**
 * A registration kind's `x-registration` with its defaults (issue 37 §4): a new kind writes only
 * what is its own (the organisation, the user's details, the persons). Offered on the choice page
 * under the form's `title` and `description`, after the built-in kinds; its page titled by the
 * form's `title`; confirmed with the portal's usual words (the individual registration's).
 */
import type { JsonSchema, RegistrationAnnotation } from './schemaTypes';

/** Where a kind without `choice.order` stands on the choice page: after those that give one. */
export const DEFAULT_CHOICE_ORDER = 100;

/** The link back to the choice page when `page.otherChoice` is not given. */
export const DEFAULT_OTHER_CHOICE = 'Choose another kind of registration';

/** The portal's usual confirmation (the individual registration's). */
export const DEFAULT_SUBMITTED: RegistrationAnnotation['submitted'] = {
  title: 'Registration Submitted',
  text: 'Thank you. Your registration has been received and is awaiting review. We will let you know once it has been reviewed.',
  button: 'Continue',
  then: 'home',
};

/** The registration a form's root declares, defaults filled in; undefined for other forms. */
export function registrationOf(schema: JsonSchema): RegistrationAnnotation | undefined {
  const annotation = schema['x-registration'];
  if (!annotation) return undefined;
  const title = typeof schema.title === 'string' ? schema.title : '';
  const description = typeof schema.description === 'string' ? schema.description : '';
  const { choice = {}, page = {}, submitted = {}, ...own } = annotation;
  return {
    ...own,
    choice: {
      label: choice.label ?? title,
      description: choice.description ?? description,
      order: choice.order ?? DEFAULT_CHOICE_ORDER,
    },
    page: {
      ...page,
      title: page.title ?? title,
      otherChoice: page.otherChoice ?? DEFAULT_OTHER_CHOICE,
    },
    submitted: { ...DEFAULT_SUBMITTED, ...submitted },
  };
}
