/**
 * Which stored values of a registration are sealed, and under which context: the answers the
 * schema marks `x-sensitive` (SSN, passport number, date of birth; never guessed from names) in
 * `registrations.answers`, the same answers where the payload carries them
 * (`registrations.payload`), and inside each affiliated person's row
 * (`registration_persons.answers`).
 */
import {
  allProperties,
  fromPointer,
  isLeaf,
  objectItemsOf,
  toPointer,
} from '../../shared/forms/schemaWalk';
import { isPlainObject, type Answers, type JsonSchema } from '../../shared/forms/schemaTypes';
import type { FieldKeyRing } from './keyRing';
import { openSealed, sealAt, type SealContext } from './sealedJson';

export const registrationContext = {
  answers: (registrationId: string): SealContext => ({
    column: 'registrations.answers',
    row: registrationId,
  }),
  payload: (registrationId: string): SealContext => ({
    column: 'registrations.payload',
    row: registrationId,
  }),
  person: (registrationId: string, position: number): SealContext => ({
    column: 'registration_persons.answers',
    row: `${registrationId}/${position}`,
  }),
};

/** The pointers of the answers the schema marks `x-sensitive`, inside lists of records too. */
export function sensitiveAnswerPointers(root: JsonSchema, answers: Answers): string[] {
  const out: string[] = [];
  const walk = (schema: JsonSchema, value: Record<string, unknown>, keys: string[]) => {
    const properties = allProperties(schema, root);
    for (const [key, answer] of Object.entries(value)) {
      const child = properties[key];
      if (!child || answer === undefined) continue;
      if (child['x-sensitive'] === true) {
        out.push(toPointer([...keys, key]));
        continue;
      }
      const items = objectItemsOf(child, root);
      if (items && Array.isArray(answer)) {
        answer.forEach((item: unknown, index) => {
          if (isPlainObject(item)) walk(items, item, [...keys, key, String(index)]);
        });
      } else if (!isLeaf(child) && isPlainObject(answer)) {
        walk(child, answer, [...keys, key]);
      }
    }
  };
  walk(root, answers, []);
  return out;
}

const MARKER = (index: number) => `@@sensitive-answer-${index}@@`;

/**
 * Where the payload carries the sensitive answers: the payload of the answers with each one
 * replaced by a marker, searched for the markers. The serializer itself maps answers to payload
 * places (sections, records, a date sent as yyyy-MM-dd), so no second mapping can drift from it.
 */
function sensitivePayloadPointers(
  answers: Answers,
  pointers: string[],
  serialize: (answers: Answers) => unknown,
): string[] {
  const marked = structuredClone(answers);
  pointers.forEach((pointer, index) => {
    const keys = fromPointer(pointer);
    const last = keys.pop()!;
    let node: unknown = marked;
    for (const key of keys) node = (node as Record<string, unknown>)[key];
    (node as Record<string, unknown>)[last] = MARKER(index);
  });
  const found: string[] = [];
  const seen = new Set<number>();
  const walk = (node: unknown, keys: string[]) => {
    if (typeof node === 'string') {
      const match = /^@@sensitive-answer-(\d+)@@$/.exec(node);
      if (match) {
        found.push(toPointer(keys));
        seen.add(Number(match[1]));
      }
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...keys, String(index)]));
    } else if (isPlainObject(node)) {
      for (const [key, child] of Object.entries(node)) walk(child, [...keys, key]);
    }
  };
  walk(serialize(marked), []);
  // An answer the payload would carry but no marker reached would be stored in the clear.
  if (seen.size !== pointers.length) {
    const lost = pointers.filter((_, index) => !seen.has(index));
    throw new Error(`sensitive answers not found in the payload: ${lost.join(', ')}`);
  }
  return found;
}

export interface SealedRegistration {
  registrationId: string;
  answers: Answers;
  payload: unknown;
  /** Each affiliated person's answers as stored in its row, by position. */
  persons: unknown[];
}

/**
 * A registration's answers, payload and persons with every sensitive answer sealed. `serialize`
 * is the form's payload serializer; `personsKey` the answer holding the affiliated persons.
 */
export function sealRegistration(
  ring: FieldKeyRing,
  input: {
    registrationId: string;
    schema: JsonSchema;
    answers: Answers;
    payload: unknown;
    serialize: (answers: Answers) => unknown;
    personsKey?: string | undefined;
  },
): SealedRegistration {
  const pointers = sensitiveAnswerPointers(input.schema, input.answers);
  const id = input.registrationId;
  const payloadPointers = pointers.length
    ? sensitivePayloadPointers(input.answers, pointers, input.serialize)
    : [];
  const list = input.personsKey ? input.answers[input.personsKey] : undefined;
  const persons = Array.isArray(list)
    ? list.map((person: unknown, position) => {
        const prefix = `${toPointer([input.personsKey!, String(position)])}/`;
        const inner = pointers
          .filter((pointer) => pointer.startsWith(prefix))
          .map((pointer) => pointer.slice(prefix.length - 1));
        return sealAt(ring, person, inner, registrationContext.person(id, position));
      })
    : [];
  return {
    registrationId: id,
    answers: sealAt(ring, input.answers, pointers, registrationContext.answers(id)),
    payload: sealAt(ring, input.payload, payloadPointers, registrationContext.payload(id)),
    persons,
  };
}

/**
 * A stored registration's answers as validated, sensitive ones decrypted (the reader of
 * `registrations.answers`; throws `UnreadableFieldError` when a key is missing).
 */
export function openRegistrationAnswers(
  ring: FieldKeyRing,
  registrationId: string,
  stored: unknown,
): Answers {
  return openSealed(ring, stored as Answers, registrationContext.answers(registrationId));
}
