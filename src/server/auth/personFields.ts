/**
 * A person's own details outside a registration (invite accept, registration/user, the KYC
 * settings tags), checked with the person form's compiled validator (schemas/person): the same
 * name, phone and photo ID rules, and the same messages, as the registrations that ask them.
 */
import { PERSON_PARTS, ROLES, type PersonAnswer, type Role } from '../../shared/api/auth';
import { deref } from '../../shared/forms/walk/schemaWalk';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import type { FileReference } from '../../shared/forms/model/types';
import { validateAnswers } from '../../shared/forms/validation/validateAnswers';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { badRequest, ClientError } from '../errors';
import type { FormCatalog } from '../../shared/forms/model/compileNode';
import type { FileRule, MultipartForm } from '../storage/multipartForm';
import type { StoredFile } from '../db/documents';
import { fromPointer } from '../../shared/forms/model/pointer';

const PERSON_FORM = 'person';
const TEXT_ANSWERS = ['firstName', 'lastName', 'phoneNumber'] as const;

/** The part names a call reads the person's answers from. */
type PersonParts = Record<PersonAnswer, string>;
/** Invite accept and the KYC settings tags (spec access §3). */
export const SNAKE_CASE_PARTS: PersonParts = PERSON_PARTS;
/** registration/user: the answers' own names. */
export const ANSWER_PARTS: PersonParts = {
  firstName: 'firstName',
  lastName: 'lastName',
  phoneNumber: 'phoneNumber',
  photoId: 'photoId',
};

/** A person's KYC basics as stored in the user's details. */
export interface PersonFields {
  firstName?: string;
  lastName?: string;
  phoneNumber?: string;
}

/** What a call sent: the text answers it gave and the checked photo ID file, if any. */
interface PersonSubmission {
  details: PersonFields;
  photo?: StoredFile;
}

/**
 * The person form (schemas/person) among the app's forms (`app.forms`), found when the routes are
 * registered, so a portal without it fails at start rather than on a request.
 */
export function personFormOf(forms: FormCatalog): CompiledForm {
  const form = forms.get(PERSON_FORM);
  if (!form) throw new Error('schemas/person is missing: the person fields have no form');
  return form;
}

/**
 * The file rule of the photo ID part, from the schema: what it accepts (`x-file`) and its prompt,
 * which names it in a refusal ('The file for Government-issued photo ID … must be …'), as the
 * registration's upload does.
 */
export function personFileRules(form: CompiledForm, parts: PersonParts): Record<string, FileRule> {
  const photo = deref(form.schema.properties?.photoId ?? {}, form.schema);
  const accept = photo['x-file'];
  if (!accept) throw new Error('The person form’s photoId is not a file answer');
  return { [parts.photoId]: { accept, label: photo.title ?? parts.photoId } };
}

/**
 * A refused photo ID file (not an image or PDF, too large, empty), as the multipart reader throws
 * it, also as a field error on its part, as a registration reports it on its answer.
 */
export function withPhotoFieldError(
  error: unknown,
  person: CompiledForm,
  parts: PersonParts,
): unknown {
  if (!(error instanceof ClientError) || error.errors) return error;
  const label = personFileRules(person, parts)[parts.photoId]?.label;
  if (!label || !error.message.includes(`for ${label} `)) return error;
  return new ClientError(
    error.statusCode,
    error.message,
    { [parts.photoId]: error.message },
    undefined,
    error.code,
  );
}

/**
 * Reads the person's answers from the form under `parts` and validates them with the person
 * form. Answers named in `optional` may be left out (modify_kyc: any; add_kyc: the photo);
 * whatever is given must pass. Throws a 400 whose `errorMessage` is the schema's message of the
 * first problem (in form order) and whose `errors` give every problem by part name.
 */
export function readPerson(
  person: CompiledForm,
  form: MultipartForm,
  parts: PersonParts,
  options: { optional?: readonly PersonAnswer[] } = {},
): PersonSubmission {
  const answers: Answers = {};
  const details: PersonFields = {};
  for (const key of TEXT_ANSWERS) {
    const value = form.field(parts[key]);
    if (value) answers[key] = details[key] = value;
  }
  const photo = form.files.get(parts.photoId);
  if (photo) {
    // The stored file, not the client's word, says what the file is (as for a registration).
    answers.photoId = {
      name: photo.originalName,
      type: photo.contentType,
      size: photo.size,
    } satisfies FileReference;
  }
  const optional = new Set<string>(options.optional ?? []);
  const problems = validateAnswers(person, answers).errors.filter(({ path }) => {
    const key = fromPointer(path)[0] ?? '';
    return !(optional.has(key) && answers[key] === undefined);
  });
  const [first] = problems;
  if (first) {
    const partOf = (path: string) => {
      const key = fromPointer(path)[0] as PersonAnswer | undefined;
      return key && key in parts ? parts[key] : path;
    };
    throw badRequest(
      first.message,
      Object.fromEntries(problems.map(({ path, message }) => [partOf(path), message])),
    );
  }
  return { details, photo };
}

/**
 * Checks a list of role names against ROLES (docs/decisions.md, Names and values: Administrator,
 * Trader, Viewer).
 */
export function readRoles(values: string[], field = 'role'): Role[] {
  const unknown = values.filter((value) => !(ROLES as readonly string[]).includes(value));
  if (unknown.length > 0) {
    throw badRequest(`Unknown role. Roles are ${ROLES.join(', ')}.`, { [field]: 'Unknown role' });
  }
  return [...new Set(values as Role[])];
}
