import type { RJSFSchema, SchemaUtilsType } from '@rjsf/utils';
import { isFileReference } from '../../shared/forms/model/types';
import { parsePointer, toPointer } from './engine';

type Answers = Record<string, unknown>;
type Schema = RJSFSchema & Record<string, unknown>;

function isObject(value: unknown): value is Answers {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The prompt of the answer at `pointer`, as the form shows it, the schema resolved for the
 * answers given (a question a condition adds has its prompt): 'Social Security number'; an
 * answer inside a list item names the item ('Affiliated person 2: SSN').
 */
export function promptAt(
  schemaUtils: SchemaUtilsType<Answers>,
  root: RJSFSchema,
  answers: Answers,
  pointer: string,
): string {
  let schema = schemaUtils.retrieveSchema(root, answers) as Schema;
  let value: unknown = answers;
  let prefix = '';
  const keys = parsePointer(pointer);
  for (const [index, key] of keys.entries()) {
    const last = index === keys.length - 1;
    if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
      const items = schema.items as Schema;
      const item: unknown = value[Number(key)];
      if (last) return `${prefix}${items.title ?? schema.title ?? key} ${Number(key) + 1}`;
      prefix = `${prefix}${items.title ?? schema.title ?? ''} ${Number(key) + 1}: `;
      schema = schemaUtils.retrieveSchema(items, item as Answers) as Schema;
      value = item;
      continue;
    }
    const child = (schema.properties as Record<string, Schema> | undefined)?.[key];
    const childValue = isObject(value) ? value[key] : undefined;
    if (!child) return `${prefix}${key}`;
    schema = schemaUtils.retrieveSchema(child, childValue as Answers) as Schema;
    value = childValue;
    if (last) return `${prefix}${schema.title ?? key}`;
  }
  return prefix || (root.title ?? '');
}

/**
 * Pointers of the answers in `answers` that `kept` lacks (what a draft filter left out): the
 * outermost missing answer, not each of its parts.
 */
export function droppedPointers(answers: unknown, kept: unknown, path: string[] = []): string[] {
  // Nothing given: an empty text, or the empty object rjsf fills in for an unanswered file.
  if (answers === undefined || answers === null || answers === '') return [];
  if (isObject(answers) && Object.keys(answers).length === 0) return [];
  if (kept === undefined) return [toPointer(path)];
  if (Array.isArray(answers)) {
    return answers.flatMap((item, index) =>
      droppedPointers(item, Array.isArray(kept) ? kept[index] : undefined, [
        ...path,
        String(index),
      ]),
    );
  }
  if (isObject(answers) && !isFileReference(answers)) {
    return Object.entries(answers).flatMap(([key, value]) =>
      droppedPointers(value, isObject(kept) ? kept[key] : undefined, [...path, key]),
    );
  }
  return [];
}
