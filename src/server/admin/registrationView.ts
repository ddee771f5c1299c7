/**
 * A stored registration as staff read it: its payload decoded to answers (with the prompt the
 * applicant was sent beside each), drawn as the shared review rows of its compiled form, so the
 * console and the applicant's review are one renderer's output. What is sensitive, a date, a
 * file or a section comes from the schema and uiSchema, never from field names.
 */
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { isPlainObject, type Answers } from '../../shared/forms/model/schemaTypes';
import { fromPayload, signedDocuments } from '../../shared/forms/payload/payload';
import {
  allRows,
  reviewSections,
  type ReviewRow,
  type ReviewSection,
} from '../../shared/forms/review/reviewRows';
import { sectionsOf } from '../../shared/forms/walk/schemaWalk';
import { fromPointer } from '../../shared/forms/model/pointer';
import { getRegistration, type StoredRegistrationDetail } from '../db/adminQueries';
import type { Queryable } from '../db/transaction';
import type { FieldKeyRing } from '../fieldEncryption/keyRing';
import { registrationContext } from '../fieldEncryption/registrationSealing';
import { openSealedLeniently, unreadableMessage } from '../fieldEncryption/sealedJson';

export interface RegistrationDetail extends Omit<StoredRegistrationDetail, 'sealedPayload'> {
  /** The prompt+value payload as sent, sections as sent (sensitive answers decrypted). */
  payload: Record<string, unknown>;
  /** Why some sensitive answers could not be decrypted (their key is missing), or null. */
  unreadable: string | null;
}

/** A registration as staff read it; `fieldKeys` decrypt its sensitive answers. Null when unknown. */
export async function readRegistrationDetail(
  db: Queryable,
  registrationId: string,
  fieldKeys: FieldKeyRing,
): Promise<RegistrationDetail | null> {
  const stored = await getRegistration(db, registrationId);
  if (!stored) return null;
  const { sealedPayload, documents, persons, ...summary } = stored;
  // A value whose key is missing is left out (null) and said once, never a failed page.
  const opened = openSealedLeniently(
    fieldKeys,
    sealedPayload,
    registrationContext.payload(stored.registrationId),
  );
  return {
    ...summary,
    payload: opened.value,
    unreadable: opened.unreadable.length > 0 ? unreadableMessage(opened.unreadable) : null,
    persons,
    documents,
  };
}

/** A step's signature (`x-signatures`): what submitting it attested, who signed, the document. */
export interface StepSignature {
  prompt: string;
  /** The signer's name as sent ('' when the form names no signer). */
  signer: string;
  /** The part of the document it signed, if any. */
  part: string | undefined;
}

export interface RegistrationReview {
  sections: ReviewSection[];
  signatures: StepSignature[];
  answers: Answers;
  /** The prompt sent with each answer, by pointer. */
  prompts: Record<string, string>;
}

/**
 * The review of a stored payload (`registrations.payload`, sensitive answers decrypted): the
 * answers decoded by the form's decoder, drawn with the prompts they were sent with.
 */
export function registrationReview(
  form: CompiledForm,
  payload: Record<string, unknown>,
): RegistrationReview {
  const fields = Object.fromEntries(
    Object.entries(payload).map(([name, part]) => [name, JSON.stringify(part)]),
  );
  const { answers, prompts } = fromPayload(form, fields);
  return {
    sections: reviewSections(form, answers, { prompts }),
    signatures: stepSignatures(form, payload),
    answers,
    prompts,
  };
}

/** The signatures of a payload's sections, as sent (their prompt and signer), in form order. */
function stepSignatures(form: CompiledForm, payload: Record<string, unknown>): StepSignature[] {
  const sections = sectionsOf(form.schema);
  return Object.entries(form.schema['x-signatures'] ?? {}).flatMap(([section, signature]) => {
    let node: unknown = payload;
    for (const key of fromPointer(sections[section] ?? '')) {
      node = isPlainObject(node) ? node[key] : undefined;
    }
    const sent = isPlainObject(node) ? node.signature : undefined;
    if (!isPlainObject(sent)) return [];
    const document = isPlainObject(sent.document) ? sent.document : undefined;
    return [
      {
        prompt: typeof sent.prompt === 'string' ? sent.prompt : signature.prompt,
        signer: typeof sent.value === 'string' ? sent.value : '',
        part: typeof document?.part === 'string' ? document.part : undefined,
      },
    ];
  });
}

/**
 * Each stored document's title for staff, by multipart part: a file's prompt, an agreement's or
 * a step signature's prompt for the document it signed.
 */
export function documentTitles(
  form: CompiledForm,
  sections: readonly ReviewSection[],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of allRows(sections)) {
    if (row.file && !out.has(row.file.part)) out.set(row.file.part, row.prompt);
  }
  for (const document of signedDocuments(form)) {
    const row = allRows(sections).find((r) => r.pointer === document.pointer);
    out.set(document.part, `${row?.prompt ?? document.title} (signed document)`);
  }
  return out;
}

/** The answered sensitive rows of a review by pointer: what a reveal may show. */
export function sensitiveRows(sections: readonly ReviewSection[]): Map<string, ReviewRow> {
  return new Map(
    allRows(sections)
      .filter((row) => row.sensitive && row.answered)
      .map((row) => [row.pointer, row]),
  );
}
