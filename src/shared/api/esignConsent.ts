/** GET and POST esign-consent: the applicant's consent to electronic records (ESIGN 7001(c)). */

/** A consent the server holds for the current version. */
export interface EsignConsentGiven {
  id: string;
  givenAt: string;
}

/** What GET esign-consent answers (and POST, with `consent` set). */
export interface EsignConsentState {
  /** The consent's version: the SHA-256 of the consent document published now. */
  version: string;
  /** Where the consent document is published (`/assets/pdfs/e-sign-consent.pdf`). */
  document: string;
  /** The user's consent to this version, or null when it has not been given. */
  consent: EsignConsentGiven | null;
}

/** POST esign-consent: the version the dialog showed (so a changed document is asked again). */
export interface EsignConsentRequest {
  version: string;
}
