import { useState } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { draftSafeAnswers } from '../../../shared/forms/walk/answers';
import type { CompiledForm } from '../../../shared/forms/model/compiledForm';
import { prefillAnswers } from '../../../shared/forms/model/prefill';
import { createRjsfValidator } from '../../../shared/forms/validation/rjsfErrors';
import { useCurrentUser } from '../../api/get-current-user';
import type { Answers } from '../../forms/SchemaForm';
import { browserDrafts, FormSession } from '../../forms/session';
import type { ChangeMode } from '../../forms/changeMode';

/** What a registration reopened for requested changes starts from (the application). */
export interface ChangesStart {
  answers: Answers;
  changeMode: ChangeMode;
  /** Pointers of the file answers the server holds: sent again only when replaced. */
  heldFiles: ReadonlySet<string>;
  /** The wizard step of the first question staff asked about, where the form opens. */
  startStep: number;
}
import { useLeaveWarning } from '../../forms/useLeaveWarning';

/** What a registration page draws its form from; made once per form, at module level. */
export interface RegistrationForm {
  formId: string;
  compiled: CompiledForm;
  schema: RJSFSchema;
  uiSchema: UiSchema;
  validator: ReturnType<typeof createRjsfValidator>;
  /** The answers a browser draft may keep (no files, signatures or sensitive answers). */
  keptInDraft: (answers: Answers) => Answers;
}

/**
 * A registration form's stable pieces (rjsf re-renders less when schema and uiSchema never
 * change identity). The page shows the form's title as its heading, so rjsf does not repeat it.
 */
export function registrationForm(form: CompiledForm): RegistrationForm {
  return {
    formId: form.id,
    compiled: form,
    schema: form.schema as RJSFSchema,
    uiSchema: {
      ...form.uiSchema,
      'ui:options': { ...(form.uiSchema['ui:options'] as object | undefined), label: false },
    },
    validator: createRjsfValidator(form),
    keptInDraft: (answers) => draftSafeAnswers(form, answers),
  };
}

/**
 * The page's one session (the form, the notices, the wizard's steps and the leave warning read
 * it): prefilled with what the schema takes from the signed-in user (`x-prefill`, read-only
 * where the uiSchema says so), kept in browser drafts, and a warning before leaving with
 * answers a draft cannot keep.
 */
export function useRegistrationSession(
  form: RegistrationForm,
  options: { validationDelayMs?: number; changes?: ChangesStart } = {},
) {
  const { data: user } = useCurrentUser();
  const { changes, ...sessionOptions } = options;
  const [session] = useState(() => {
    const created = new FormSession({
      formId: form.formId,
      form: form.compiled,
      schema: form.schema,
      uiSchema: form.uiSchema,
      validator: form.validator,
      // Change mode opens the answers as submitted, never a browser draft.
      ...(changes
        ? { initial: changes.answers, changeMode: changes.changeMode }
        : {
            initial: user ? prefillAnswers(form.compiled, { email: user.email }) : {},
            persistence: browserDrafts(form.formId, form.keptInDraft),
          }),
      ...sessionOptions,
    });
    if (changes) created.goTo(changes.startStep);
    return created;
  });
  const leaveWarning = useLeaveWarning(session, form.keptInDraft);
  return { session, leaveWarning };
}
