/**
 * The columns of `registration_persons` (migration 070) that repeat an affiliated person's answers
 * for staff to list and find them, filled from the questions the persons' schema marks with
 * `"x-person-column": "<column>"`: renaming a question in the schema moves its annotation with
 * it, and no code names the person's fields.
 */
import { allProperties, deref, isLeaf, objectItemsOf } from '../walk/schemaWalk';
import { isPlainObject, type Answers, type JsonSchema } from './schemaTypes';
import { toPointer } from './pointer';

/** The columns, their SQL kind, and whether every row needs one (NOT NULL). */
const PERSON_COLUMNS = {
  first_name: { kind: 'text', required: true },
  last_name: { kind: 'text', required: true },
  title: { kind: 'text', required: false },
  ownership_percent: { kind: 'integer', required: false },
  is_direct: { kind: 'boolean', required: false },
} as const;

export type PersonColumn = keyof typeof PERSON_COLUMNS;
export type PersonColumnValues = Record<PersonColumn, string | number | boolean | null>;

const isPersonColumn = (name: unknown): name is PersonColumn =>
  typeof name === 'string' && Object.hasOwn(PERSON_COLUMNS, name);

/** The item schema of the form's persons list (`x-registration.persons`), if it has one. */
export function personItemSchema(root: JsonSchema): JsonSchema | undefined {
  const key = root['x-registration']?.persons;
  const list = key ? allProperties(root, root)[key] : undefined;
  return list ? objectItemsOf(list, root) : undefined;
}

/** Each annotated question of a person: the answer's key by the column it fills. */
function columnKeys(item: JsonSchema, root: JsonSchema): Map<PersonColumn, string> {
  const out = new Map<PersonColumn, string>();
  for (const [key, child] of Object.entries(allProperties(item, root))) {
    const column = deref(child, root)['x-person-column'];
    if (isPersonColumn(column) && !out.has(column)) out.set(column, key);
  }
  return out;
}

/** One person's column values from their answers (as validated), by the schema's annotations. */
export function personColumnValues(
  item: JsonSchema,
  root: JsonSchema,
  person: Answers,
): PersonColumnValues {
  const keys = columnKeys(item, root);
  const properties = allProperties(item, root);
  const values = {} as PersonColumnValues;
  for (const [column, { kind, required }] of Object.entries(PERSON_COLUMNS)) {
    const key = keys.get(column as PersonColumn);
    let value: unknown = key === undefined ? undefined : person[key];
    // An answer the payload sends as another value (`direct` as true) is stored as sent.
    const sendAs = key === undefined ? undefined : deref(properties[key]!, root)['x-send-as'];
    if (isPlainObject(sendAs) && typeof value === 'string' && value in sendAs) {
      value = sendAs[value];
    }
    let stored: string | number | boolean | null = null;
    if (kind === 'text' && typeof value === 'string' && value.trim()) stored = value.trim();
    if (kind === 'integer' && Number.isInteger(value)) stored = value as number;
    if (kind === 'boolean' && typeof value === 'boolean') stored = value;
    values[column as PersonColumn] = stored ?? (required ? '' : null);
  }
  return values;
}

/**
 * `forms check`'s view: every `x-person-column` names a column, once, on a question of the
 * persons' items, and the columns every row needs are named.
 */
export function personColumnProblems(root: JsonSchema): { pointer: string; message: string }[] {
  const problems: { pointer: string; message: string }[] = [];
  const persons = root['x-registration']?.persons;
  const item = personItemSchema(root);
  if (!persons || !item) return problems;
  const known = Object.keys(PERSON_COLUMNS).join(', ');
  const seen = new Map<string, string>();
  for (const [key, child] of Object.entries(allProperties(item, root))) {
    const resolved = deref(child, root);
    const column = resolved['x-person-column'];
    if (column === undefined) continue;
    const pointer = toPointer([persons, 'items', key, 'x-person-column']);
    if (!isPersonColumn(column)) {
      problems.push({
        pointer,
        message: `x-person-column names no column of registration_persons ${JSON.stringify(column)} (the columns: ${known})`,
      });
    } else if (seen.has(column)) {
      problems.push({
        pointer,
        message: `x-person-column ${column} is already filled by ${seen.get(column)}: name each column once`,
      });
    } else if (!isLeaf(resolved)) {
      problems.push({ pointer, message: 'x-person-column belongs on an answer, not a group' });
    } else if (!keepsAnswer(PERSON_COLUMNS[column].kind, resolved)) {
      problems.push({ pointer, message: kindMessage(column, resolved) });
    } else {
      seen.set(column, key);
    }
  }
  for (const [column, { required }] of Object.entries(PERSON_COLUMNS)) {
    if (required && !seen.has(column)) {
      problems.push({
        pointer: toPointer(['x-registration', 'persons']),
        message: `no question of the persons fills registration_persons.${column}: mark it with "x-person-column": "${column}"`,
      });
    }
  }
  return problems;
}

/** What the question's answers are, as the column kinds name them. */
function answerKinds(question: JsonSchema): string[] {
  const sendAs = question['x-send-as'];
  if (isPlainObject(sendAs))
    return [...new Set(Object.values(sendAs).map((value) => typeof value))];
  if (sendAs === 'iso-date') return ['string'];
  const types = typeof question.type === 'string' ? [question.type] : (question.type ?? []);
  return types.map((type) =>
    type === 'integer' ? 'integer' : type === 'number' ? 'number' : type,
  );
}

/** Whether every answer the question takes is kept by a column of `kind` (issue 37 §2). */
function keepsAnswer(kind: 'text' | 'integer' | 'boolean', question: JsonSchema): boolean {
  const kinds = answerKinds(question).filter((each) => each !== 'null');
  const wanted = { text: 'string', integer: 'integer', boolean: 'boolean' }[kind];
  return kinds.length > 0 && kinds.every((each) => each === wanted);
}

function kindMessage(column: PersonColumn, question: JsonSchema): string {
  const kind = PERSON_COLUMNS[column].kind;
  const kinds = answerKinds(question).join(' or ') || 'of no declared type';
  const write = {
    text: '"type": "string"',
    integer: '"type": "integer"',
    boolean: '"type": "boolean"',
  }[kind];
  return kind === 'integer' && kinds.includes('number')
    ? `registration_persons.${column} keeps whole numbers, and this question takes any number (15.5 would be stored as nothing): write ${write}`
    : `registration_persons.${column} keeps ${kind === 'text' ? 'text' : kind === 'integer' ? 'whole numbers' : 'yes or no'}, and this question's answers are ${kinds}: write ${write}, or fill another column`;
}
