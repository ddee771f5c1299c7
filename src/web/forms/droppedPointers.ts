import { isPlainObject as isObject } from '../../shared/forms/model/schemaTypes';
import { isFileReference } from '../../shared/forms/model/types';
import { toPointer } from '../../shared/forms/model/pointer';

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
