import ajvErrors from 'ajv-errors';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { ErrorTransformer, RJSFSchema, UiSchema } from '@rjsf/utils';

/**
 * A small form in the shape of the individual schema, used until the engine's schemas land:
 * titles are prompts, errorMessage carries the wording, if/then conditions and annotations
 * (x-sensitive, x-document) as the engine uses them.
 */
export const schema = {
  type: 'object',
  required: ['firstName', 'socialSecurityNumber', 'agreeTermsOfService', 'photoId'],
  properties: {
    firstName: { type: 'string', title: 'First name' },
    socialSecurityNumber: {
      type: 'string',
      title: 'Social security number',
      'x-sensitive': true,
      pattern: '^\\d{3}-\\d{2}-\\d{4}$',
      errorMessage: { pattern: 'Incorrect SSN format, must be NNN-NN-NNNN' },
    },
    dateOfBirth: {
      type: 'string',
      title: 'Date of birth',
      'x-sensitive': true,
      pattern: '^(0?[1-9]|1[0-2])/(0?[1-9]|[12]\\d|3[01])/\\d{4}$',
      errorMessage: { pattern: 'Incorrect date format, must be MM/DD/YYYY' },
    },
    primaryPhoneNumber: {
      type: 'string',
      title: 'Primary phone number',
      pattern: '^\\+',
      minLength: 8,
      errorMessage: {
        pattern: 'Must enter phone number in international format',
        minLength: 'Phone number too short',
      },
    },
    mailingAddress: {
      type: 'object',
      title: 'Current mailing address',
      properties: {
        line1: { type: 'string', title: 'Street address' },
        region: { type: 'string', title: 'State / region' },
        country: { type: 'string', title: 'Country' },
      },
    },
    marriedStatus: { type: 'boolean', title: 'Are you married?' },
    employmentStatus: {
      type: 'string',
      title: 'Employment status',
      enum: ['Employed', 'Retired'],
    },
    photoId: {
      type: 'object',
      title: 'Front of your photo ID',
      properties: { name: { type: 'string' }, type: { type: 'string' }, size: { type: 'number' } },
    },
    irsFormW2: {
      type: 'object',
      title: 'IRS Form W-2',
      properties: { name: { type: 'string' }, type: { type: 'string' }, size: { type: 'number' } },
    },
    agreeTermsOfService: {
      type: 'boolean',
      title: 'Terms of Service',
      'x-document': '/assets/pdfs/terms-of-service.pdf',
      const: true,
      errorMessage: { const: 'Must agree to the terms of service' },
    },
  },
  if: { properties: { employmentStatus: { const: 'Employed' } }, required: ['employmentStatus'] },
  then: {
    properties: { employerName: { type: 'string', title: 'Employer name' } },
    required: ['employerName'],
  },
  errorMessage: {
    required: {
      firstName: 'Must provide first name',
      socialSecurityNumber: 'Must provide social security number',
      agreeTermsOfService: 'Must agree to the terms of service',
      photoId: 'Must provide an image of the front of chosen ID',
      employerName: 'Must provide employer name',
    },
  },
} as RJSFSchema;

export const uiSchema: UiSchema = {
  'ui:order': [
    'firstName',
    'socialSecurityNumber',
    'dateOfBirth',
    'primaryPhoneNumber',
    'mailingAddress',
    'marriedStatus',
    'employmentStatus',
    'employerName',
    'photoId',
    'irsFormW2',
    'agreeTermsOfService',
  ],
  socialSecurityNumber: { 'ui:widget': 'ssn' },
  dateOfBirth: { 'ui:widget': 'date' },
  primaryPhoneNumber: { 'ui:widget': 'phone' },
  mailingAddress: {
    'ui:order': ['line1', 'country', 'region'],
    country: { 'ui:widget': 'country' },
    region: { 'ui:widget': 'region' },
  },
  marriedStatus: { 'ui:widget': 'yesNo' },
  employmentStatus: { 'ui:widget': 'radio' },
  photoId: { 'ui:widget': 'imageUpload' },
  irsFormW2: { 'ui:widget': 'pdfUpload' },
  agreeTermsOfService: { 'ui:widget': 'agreement' },
};

export const validator = customizeValidator({ extenderFn: (ajv) => ajvErrors(ajv) });

/** Stand-in for the engine's error translation: required messages to their field, no if/then noise. */
export const transformErrors: ErrorTransformer = (errors) =>
  errors
    .filter((error) => error.name !== 'if')
    .map((error) => {
      const missing = (
        error.params as { errors?: Array<{ params?: { missingProperty?: string } }> }
      )?.errors?.[0]?.params?.missingProperty;
      if (error.name === 'errorMessage' && missing) {
        const property = `${error.property ?? ''}.${missing}`;
        return { ...error, property };
      }
      return error;
    });

/** The prompt of a property, read from the schema. */
export function title(...path: string[]): string {
  let node: RJSFSchema | undefined = schema;
  for (const key of path) {
    node = (node?.properties?.[key] ?? (node?.then as RJSFSchema)?.properties?.[key]) as
      RJSFSchema | undefined;
  }
  if (!node?.title) throw new Error(`no title at ${path.join('.')}`);
  return node.title;
}

/** An errorMessage of the schema, read rather than retyped. */
export function requiredMessage(key: string): string {
  return (schema.errorMessage as { required: Record<string, string> }).required[key]!;
}
