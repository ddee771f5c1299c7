/** The legal documents served under /assets/pdfs (sample files; a firm replaces them). */
export const LEGAL_DOCUMENTS = {
  termsOfService: { slug: 'terms-of-service', title: 'Terms of Service' },
  riskDisclosures: { slug: 'risk-disclosures', title: 'Risk Disclosures' },
  futuresCustomerAgreement: {
    slug: 'futures-customer-agreement',
    title: 'Futures Customer Agreement',
  },
  eSignConsent: { slug: 'e-sign-consent', title: 'Electronic Signature Consent' },
  arbitrationClause: { slug: 'arbitration-clause', title: 'Voluntary Arbitration Clause' },
  corporateGuaranteeForm: { slug: 'corporate-guarantee-form', title: 'Corporate Guarantee' },
  authorizedSignerForm: { slug: 'authorized-signer-form', title: 'Authorized Signer Form' },
} as const;
