/**
 * `contains` reported on the list alone (issue 37 §2). Ajv's `contains` keeps the errors of every
 * item that did not match when the list fails ('Principal 1: …', 'Principal 2: …'): those items
 * broke no rule of their own, the list did. This is Ajv's own keyword, its failure wrapped so the
 * items' errors are dropped before the list's one error is added; it generates code, so the
 * browser's precompiled validators carry it as the server's do.
 */
import type { Ajv, CodeKeywordDefinition, KeywordCxt } from 'ajv';

/** Replaces `ajv`'s `contains` with the same keyword reporting on the list only. */
export function containsOnTheList(ajv: Ajv): void {
  const original = ajv.getKeyword('contains');
  if (typeof original !== 'object' || !('code' in original)) return;
  const definition = original as CodeKeywordDefinition;
  ajv.removeKeyword('contains');
  ajv.addKeyword({
    ...definition,
    code(cxt: KeywordCxt) {
      const result = cxt.result.bind(cxt);
      cxt.result = (condition, onSuccess, onFailure) =>
        result(condition, onSuccess, () => {
          cxt.reset();
          if (onFailure) onFailure();
          else cxt.error();
        });
      definition.code(cxt);
    },
  });
}
