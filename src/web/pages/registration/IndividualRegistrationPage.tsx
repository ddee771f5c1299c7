// The compiled individual form with its precompiled validator (generated at build time).
import individualForm from 'virtual:forms/individual';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { currentUserQueryKey } from '../../api/get-current-user';
import { submitIndividualRegistration } from '../../api/submit-individual-registration';
import { registrationForm } from './registrationSession';
import { RegistrationPage } from './RegistrationPage';

const form = registrationForm(individualForm);

/**
 * /clearing/registration/individual: the individual form (schemas/individual), its details then
 * its review, sent as the prompt+value multipart payload.
 */
export function IndividualRegistrationPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <RegistrationPage
      registration={{
        form,
        pageTitle: 'Individual Registration',
        otherChoice: 'Not an individual?',
        send: submitIndividualRegistration,
        submitted: {
          title: 'Registration Submitted',
          text: 'Thank you. Your registration has been received and is awaiting review. We will let you know once it has been reviewed.',
          button: 'Continue',
          onDone: async () => {
            // Only now learn the new details: the guards then send the user home, not back here.
            await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
            await navigate('/home', { replace: true });
          },
        },
      }}
    />
  );
}
