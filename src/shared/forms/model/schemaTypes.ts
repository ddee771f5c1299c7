/** Loose JSON Schema and uiSchema types: schemas carry `x-…` keywords that typed models lack. */
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';

/** A JSON Schema object as the engine reads it (annotations included). */
export interface JsonSchema {
  [key: string]: unknown;
  $ref?: string;
  title?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[] | boolean;
  required?: string[];
  allOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  oneOf?: JsonSchema[];
  const?: unknown;
  $defs?: Record<string, JsonSchema>;
  'x-sections'?: Record<string, string>;
  'x-section'?: string;
  'x-variants'?: Record<string, string>;
  'x-sensitive'?: boolean;
  'x-file'?: 'image' | 'pdf' | 'image-or-pdf';
  'x-document'?: string;
  'x-template'?: string;
  'x-prefill'?: string;
  'x-signatures'?: Record<string, { prompt: string; document?: string }>;
  'x-registration'?: WrittenRegistration;
  'x-submission-required'?: string;
  'x-also-in'?: string[];
  'x-send-as'?: 'iso-date' | Record<string, string | number | boolean>;
  /** The `registration_persons` column an affiliated person's answer fills (personColumns.ts). */
  'x-person-column'?: string;
  'x-messages'?: Record<string, string>;
}

/**
 * `x-registration` (form root) as written: what a stored registration makes of the answers, and,
 * each optional (defaults in model/registration.ts), how the portal offers it.
 */
export interface WrittenRegistration {
  organizationKind: 'individual' | 'business';
  /** Answer keys whose values, joined by a space, name the new organisation. */
  organizationName: string[];
  /** The answer key of each of the user's details. */
  userDetails: { firstName: string; lastName: string; phoneNumber: string };
  /** The list of affiliated persons, stored one row each. */
  persons?: string;
  choice?: Partial<RegistrationAnnotation['choice']>;
  page?: Partial<RegistrationAnnotation['page']>;
  submitted?: Partial<RegistrationAnnotation['submitted']>;
}

/** A registration kind as the portal serves it: `x-registration` with its defaults filled in. */
export interface RegistrationAnnotation extends Omit<
  WrittenRegistration,
  'choice' | 'page' | 'submitted'
> {
  /** How the registration is offered on the choice page (lowest `order` first). */
  choice: { label: string; description: string; order: number };
  /**
   * The registration page: its document title, the link back to the choice, and how long to
   * wait after a change before validating again (business spec §4: 400 ms).
   */
  page: { title: string; otherChoice: string; validationDelayMs?: number };
  /**
   * The confirmation after a successful submission, and what its button does: `home` (the user's
   * details fetched afresh, then home), `start-afresh` (drafts and the cached sign-in forgotten,
   * then home, or /trade from a page whose path says 'botanical': business spec §2.1).
   */
  submitted: { title: string; text: string; button: string; then: 'home' | 'start-afresh' };
}

export type UiSchema = { [key: string]: unknown };

/** Answers: the form data of one form. */
export type Answers = Record<string, unknown>;

/**
 * rjsf's validator interface, as Ajv built it for a form (compiled or precompiled). Here, below
 * the model and the walker, so the walker takes one without importing the model above it.
 */
export type FormValidator = ValidatorType<Record<string, unknown>, RJSFSchema>;

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An answer the schema marks `x-sensitive` (SSN, passport number, date of birth; never guessed
 * from names): sealed at rest, masked where others may see it, never kept in a browser draft.
 */
export const isSensitive = (schema: JsonSchema): boolean => schema['x-sensitive'] === true;

/** An agreement: a `const: true` answer, given by signing (a yes/no question's Yes is not one). */
export const isAgreement = (schema: JsonSchema): boolean => schema.const === true;

/**
 * Answers a browser draft never keeps (docs/decisions.md, Drafts): files, agreements and sensitive
 * answers.
 */
export const isDraftExcluded = (schema: JsonSchema): boolean =>
  schema['x-file'] !== undefined || isSensitive(schema) || isAgreement(schema);
