/**
 * The applicant's view of their registration after submission (issue 17): where it stands, the
 * statuses it took, and the changes staff asked for, question by question.
 */

/** What staff asked to change: a note on the whole application and the questions, each noted. */
export interface ChangeRequest {
  note: string | null;
  fields: {
    /** JSON pointer into the answers (`/w8orw9`, `/affiliatedPersons/0/passportCountryOfIssuance`). */
    path: string;
    /** The question as the form asks it now ('Affiliated person 1: Passport country of issuance'). */
    prompt: string;
    note: string;
  }[];
}

/** One status the registration took: when, and who made the change. */
export interface StatusEvent {
  status: 'pending' | 'changes_requested' | 'resubmitted' | 'approved' | 'rejected';
  at: string;
  by: 'applicant' | 'staff' | 'operator';
}

/** GET registration: the signed-in user's registration, or null before they submit one. */
export interface RegistrationOverview {
  registration: {
    registrationId: string;
    formId: string;
    status: StatusEvent['status'];
    history: StatusEvent[];
    /** Set while the status is changes_requested. */
    changeRequest: ChangeRequest | null;
  } | null;
}
