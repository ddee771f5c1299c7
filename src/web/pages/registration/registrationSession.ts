import { useCallback, useEffect, useState } from 'react';
import { draftSafeAnswers } from '../../../shared/forms/walk/answers';
import type { CompiledForm } from '../../../shared/forms/model/compiledForm';
import { prefillAnswers } from '../../../shared/forms/model/prefill';
import type { Application } from '../../api/applications';
import { useCurrentUser } from '../../api/get-current-user';
import type { Answers } from '../../forms/SchemaForm';
import { ServerApplication } from '../../forms/serverApplication';
import { lostUploadMessage } from '../../forms/unsentChanges';
import { loadRegistrationForm } from '../../forms/registrationForms';
import { FormSession } from '../../forms/session';
import type { ChangeMode } from '../../forms/changeModeModel';

/** What a registration reopened for requested changes starts from (the application). */
export interface ChangesStart {
  answers: Answers;
  changeMode: ChangeMode;
  /** The wizard step of the first question staff asked about, where the form opens. */
  startStep: number;
}
import { useLeaveWarning } from '../../forms/useLeaveWarning';

/** What a registration page draws its form from; made once per form, at module level. */
export interface RegistrationForm {
  formId: string;
  compiled: CompiledForm;
  /** The answers a browser draft may keep (no files, signatures or sensitive answers). */
  keptInDraft: (answers: Answers) => Answers;
}

/**
 * A registration form with what its pages ask of it (its session draws it without its title:
 * the page shows the title as its heading).
 */
function registrationForm(form: CompiledForm): RegistrationForm {
  return {
    formId: form.id,
    compiled: form,
    keptInDraft: (answers) => draftSafeAnswers(form, answers),
  };
}

const prepared = new Map<string, Promise<RegistrationForm | undefined>>();

/**
 * The registration form of a form id with its stable pieces, made once (the same promise every
 * time, so a page can `use` it); undefined when the catalog has no registration form of that id.
 */
export function loadRegistration(formId: string): Promise<RegistrationForm | undefined> {
  let promise = prepared.get(formId);
  if (!promise) {
    promise = loadRegistrationForm(formId).then((form) => form && registrationForm(form));
    prepared.set(formId, promise);
  }
  return promise;
}

/**
 * The page's one session (the form, the notices, the wizard's steps and the leave warning read
 * it): prefilled with what the schema takes from the signed-in user (`x-prefill`, read-only
 * where the uiSchema says so), opened on the applicant's application as the server holds it
 * (`application`, loaded before) and saved there as the user works, files uploaded when chosen;
 * a browser draft without sensitive answers stays as the offline fallback. Leaving warns only
 * about answers not yet on the server.
 */
export function useRegistrationSession(
  form: RegistrationForm,
  options: {
    validationDelayMs?: number;
    application: Application | null;
    changes?: ChangesStart | undefined;
  },
) {
  const { data: user } = useCurrentUser();
  const { changes } = options;
  const [{ session, saver }] = useState(() => {
    // The application on the server keeps the answers as they are given, in change mode too.
    const saver = new ServerApplication({
      formId: form.formId,
      application: options.application,
      draftFilter: form.keptInDraft,
    });
    const session = new FormSession({
      form: form.compiled,
      // The page shows the form's title as its heading.
      ownHeading: true,
      // Change mode opens the answers as submitted (the application made of them), with the
      // changes this browser kept that the server never got laid over them, as outside it.
      ...(changes
        ? {
            initial: (saver.restoredUnsent && saver.load()) || changes.answers,
            changeMode: changes.changeMode,
            openAt: changes.startStep,
          }
        : { initial: user ? prefillAnswers(form.compiled, { email: user.email }) : {} }),
      persistence: saver,
      validationDelayMs: options.validationDelayMs,
    });
    session.engine.uploader = saver.uploader();
    saver.onMerged = (answers) => session.applyExternal(answers);
    // A file the page was left during the upload of is named at its question.
    for (const { pointer, name } of saver.lostUploads) {
      session.engine.uploads.set(pointer, {
        kind: 'failed',
        message: lostUploadMessage(name),
        retry: false,
      });
    }
    return { session, saver };
  });
  useEffect(() => {
    // Changes this browser kept from a visit the server never heard of go now.
    saver.resume();
    // The page going away (closed, reloaded, another site): the pending save outlives it.
    const onPageHide = () => saver.flushOnPageHide();
    // The connection is back: a failed save goes again without waiting for its next try.
    const onOnline = () => saver.retryNow();
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('online', onOnline);
    };
  }, [saver]);
  const saveBeforeLeaving = useCallback(() => saver.saveBeforeLeaving(), [saver]);
  const leaveWarning = useLeaveWarning(
    session,
    (answers) => (saver.holdsEverything() ? answers : form.keptInDraft(answers)),
    saver.state,
    saveBeforeLeaving,
  );
  return { session, saver, leaveWarning };
}
