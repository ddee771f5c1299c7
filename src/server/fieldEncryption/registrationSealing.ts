/**
 * Which stored values of a registration are sealed, and under which context: the answers the
 * schema marks `x-sensitive` (SSN, passport number, date of birth; never guessed from names) in
 * `registrations.answers`, the same answers where the payload carries them
 * (`registrations.payload`), and inside each affiliated person's row
 * (`registration_persons.answers`).
 */
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { toPayloadJson, type PayloadTrace } from '../../shared/forms/payload/payload';
import {
  childSchema,
  deref,
  isLeaf,
  itemSchemaAt,
  listItemsAnswered,
  objectParts,
} from '../../shared/forms/walk/schemaWalk';
import {
  isPlainObject,
  isSensitive,
  type Answers,
  type JsonSchema,
} from '../../shared/forms/model/schemaTypes';
import type { FieldKeyRing } from './keyRing';
import { openSealed, sealAt, type SealContext } from './sealedJson';
import { fromPointer, toPointer } from '../../shared/forms/model/pointer';

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

/**
 * What the walker found for an answer's place in a form: its schema, whether it is sealed, and
 * the places found so far inside it (by property name; `[]` for any item of a list, the index
 * for a tuple's item).
 */
interface Place {
  schema: JsonSchema;
  sensitive: boolean;
  children: Map<string, Place | null>;
}

/**
 * The places of a form, as a tree from its root: a form's schema does not change, so the walk
 * over its parts is done once per place, not per save or submission, and a save's 50 affiliated
 * persons share the places of one (bounded: answers may name keys of their own).
 */
const placesByForm = new WeakMap<CompiledForm, { root: Place; size: number }>();
const MAX_PLACES = 5000;

/**
 * The pointers of the answers the form's schema marks `x-sensitive`, found by the form walker
 * (references, every branch of a combinator or condition, schema dependencies, pattern and
 * additional properties, lists of records and tuples): an answer is sealed when any part that
 * may show it marks it, whatever branch holds.
 */
export function sensitiveAnswerPointers(form: CompiledForm, answers: Answers): string[] {
  const root = form.schema;
  let tree = placesByForm.get(form);
  if (!tree || tree.size > MAX_PLACES) {
    tree = { root: { schema: root, sensitive: false, children: new Map() }, size: 0 };
    placesByForm.set(form, tree);
  }
  const cache = tree;
  const out: string[] = [];
  const place = (parent: Place, key: string, make: () => Omit<Place, 'children'> | null) => {
    let found = parent.children.get(key);
    if (found === undefined) {
      const made = make();
      found = made ? { ...made, children: new Map() } : null;
      parent.children.set(key, found);
      cache.size++;
    }
    return found;
  };
  const walkValue = (at: Place, value: unknown, pointer: string) => {
    const schema = at.schema;
    if (!isLeaf(schema) && isPlainObject(value)) walkObject(at, value, pointer);
    else if (Array.isArray(value) && listItemsAnswered(schema, root)) {
      const tuple = Array.isArray(deref(schema, root).items);
      value.forEach((item: unknown, index) => {
        const found = place(at, tuple ? String(index) : '[]', () => {
          const itemSchema = itemSchemaAt(schema, index, root);
          return itemSchema ? { schema: itemSchema, sensitive: anySensitive([itemSchema]) } : null;
        });
        if (found) visit(found, item, `${pointer}/${index}`);
      });
    }
  };
  const visit = (found: Place, value: unknown, pointer: string) => {
    if (value === undefined) return;
    if (found.sensitive) out.push(pointer);
    else walkValue(found, value, pointer);
  };
  const walkObject = (at: Place, value: Record<string, unknown>, pointer: string) => {
    let parts: JsonSchema[] | undefined;
    for (const [key, answer] of Object.entries(value)) {
      // `.` keeps a property named `[]` apart from a list's items.
      const found = place(at, `.${key}`, () => {
        parts ??= objectParts(at.schema, root);
        const child = childSchema(parts, key, root);
        if (!child) return null;
        // Every declaration of the key (a branch may mark what another declares plainly).
        const declared = parts
          .map((part) => part.properties?.[key])
          .filter((property): property is JsonSchema => property !== undefined)
          .map((property) => deref(property, root));
        return { schema: child, sensitive: anySensitive([child, ...declared]) };
      });
      if (found) visit(found, answer, `${pointer}${toPointer([key])}`);
    }
  };
  walkValue(cache.root, answers, '');
  return out;
}

/** Whether any of the schemas that may show an answer marks it sensitive (the model's rule). */
const anySensitive = (schemas: JsonSchema[]) => schemas.some(isSensitive);

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

/**
 * What the route hands the serializer when it builds a payload to be sealed: the sensitive
 * answers' pointers, whose entries the serializer notes (`toPayloadJson`'s `trace`).
 */
export function sensitivePayloadTrace(form: CompiledForm, answers: Answers): PayloadTrace {
  return { wanted: new Set(sensitiveAnswerPointers(form, answers)), entries: new Map() };
}

/**
 * The places of the sensitive answers in a payload built with `trace`: each noted entry's value,
 * wherever the payload holds the entry (found by identity, one walk). Null when the trace does not
 * account for every pointer (another payload, or an answer sent otherwise than as an entry): the
 * caller then finds them by markers.
 */
function tracedPayloadPointers(
  payload: unknown,
  pointers: string[],
  trace: PayloadTrace,
): string[] | null {
  const found: string[] = [];
  const seen = new Set<string>();
  const keys: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    const answer = trace.entries.get(node);
    if (answer !== undefined) {
      found.push(toPointer([...keys, 'value']));
      seen.add(answer);
      return;
    }
    for (const key of Object.keys(node)) {
      keys.push(key);
      walk((node as Record<string, unknown>)[key]);
      keys.pop();
    }
  };
  walk(payload);
  return pointers.every((pointer) => seen.has(pointer)) ? found : null;
}

interface SealedRegistration {
  registrationId: string;
  answers: Answers;
  payload: unknown;
  /** Each affiliated person's answers as stored in its row, by position. */
  persons: unknown[];
}

/**
 * A registration's answers, payload and persons with every sensitive answer sealed. The form
 * gives the sensitive answers (`x-sensitive`) and the payload serializer; `personsKey` is the
 * answer holding the affiliated persons (the form's `x-registration`). `payloadTrace`, when the
 * payload was built with it (`sensitivePayloadTrace`), says where the payload holds them;
 * without it they are found by serializing the answers again with markers in their place.
 */
export function sealRegistration(
  ring: FieldKeyRing,
  input: {
    registrationId: string;
    form: CompiledForm;
    answers: Answers;
    payload: unknown;
    payloadTrace?: PayloadTrace | undefined;
    personsKey?: string | undefined;
  },
): SealedRegistration {
  const pointers = sensitiveAnswerPointers(input.form, input.answers);
  const serialize = (marked: Answers) => toPayloadJson(input.form, marked).parts;
  const id = input.registrationId;
  const traced =
    pointers.length && input.payloadTrace
      ? tracedPayloadPointers(input.payload, pointers, input.payloadTrace)
      : null;
  const payloadPointers = pointers.length
    ? (traced ?? sensitivePayloadPointers(input.answers, pointers, serialize))
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
