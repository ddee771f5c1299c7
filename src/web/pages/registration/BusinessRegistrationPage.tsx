// The compiled business form with its precompiled validator (generated at build time).
import businessForm from 'virtual:forms/business';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { authCheckQueryOptions } from '../../api/get-auth-check';
import { currentUserQueryKey } from '../../api/get-current-user';
import { submitBusinessRegistration } from '../../api/submit-business-registration';
import { clearDrafts } from '../../forms/draftStorage';
import { afterSubmissionTarget } from './afterSubmission';
import { registrationForm } from './registrationSession';
import { RegistrationPage } from './RegistrationPage';

const form = registrationForm(businessForm);

/**
 * /clearing/registration/business: the business form (schemas/business), whose uiSchema names
 * three steps (User Details, Business Details, Confirm).
 */
export function BusinessRegistrationPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <RegistrationPage
      registration={{
        form,
        pageTitle: 'Business Registration',
        otherChoice: 'Not a business?',
        send: submitBusinessRegistration,
        validationDelayMs: 400,
        submitted: {
          title: 'Submission Successful',
          text: "Your submission has been received. You'll hear back from the provider with next steps.",
          button: 'Okay',
          onDone: async () => {
            // Okay: drafts, the cached sign-in and the user are forgotten; home fetches them afresh.
            clearDrafts();
            queryClient.removeQueries({ queryKey: authCheckQueryOptions().queryKey });
            queryClient.removeQueries({ queryKey: currentUserQueryKey });
            // The whole path (the app's basename included) decides.
            const target = afterSubmissionTarget(window.location.pathname);
            if (target.kind === 'outside') window.location.assign(target.href);
            else await navigate(target.to, { replace: true });
          },
        },
      }}
    />
  );
}
