import fs from 'node:fs';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { createRjsfValidator } from '../../../src/shared/forms/validation/rjsfErrors';
import type { Answers } from '../../../src/shared/forms/model/schemaTypes';
import { validateAnswers } from '../../../src/shared/forms/validation/validateAnswers';
import { testForm } from '../../forms';

/**
 * The engine's own individual form, as the page renders it: its schema, uiSchema and the real
 * validator with the engine's error translation (no stand-in), so a fault in the translation, a
 * rule or a message fails the SchemaForm, widget and draft tests. Prompts and messages are read
 * from the engine, never retyped.
 */
export const FORM_ID = 'individual';
export const form = testForm(FORM_ID);
export const schema = form.schema as RJSFSchema;
export const uiSchema = form.uiSchema as UiSchema;
export const validator = createRjsfValidator(testForm(FORM_ID));

/** Valid answers of a form (its example file), to start a form from with one answer changed. */
export function exampleAnswers(formId: string = FORM_ID): Answers {
  return JSON.parse(fs.readFileSync(`schemas/${formId}/${formId}.example.json`, 'utf8')) as Answers;
}

/** The example answers without `keys`. */
export function exampleWithout(...keys: string[]): Answers {
  const answers = exampleAnswers();
  for (const key of keys) delete answers[key];
  return answers;
}

type Node = Omit<RJSFSchema, 'allOf'> & {
  allOf?: Array<{ then?: RJSFSchema; else?: RJSFSchema }>;
};

/** The prompt of a property (conditional ones too), read from the schema. */
export function title(...path: string[]): string {
  let node: Node | undefined = schema as Node;
  for (const key of path) {
    const candidates: Array<RJSFSchema | undefined> = [
      node?.properties?.[key] as RJSFSchema | undefined,
      ...(node?.allOf ?? []).flatMap((part) => [
        part.then?.properties?.[key] as RJSFSchema | undefined,
        part.else?.properties?.[key] as RJSFSchema | undefined,
      ]),
    ];
    node = candidates.find(
      (candidate) => candidate?.title || candidate?.properties || candidate?.$ref,
    ) as Node;
    if (node?.$ref) node = { ...resolve(node.$ref), ...node } as Node;
  }
  if (!node?.title) throw new Error(`no title at ${path.join('.')}`);
  return node.title;
}

function resolve(ref: string): RJSFSchema | undefined {
  const [, ...parts] = ref.split('/');
  let node: unknown = schema;
  for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
  return node as RJSFSchema | undefined;
}

/** The message the engine gives for the answer at `pointer` in `answers`. */
export function messageFor(answers: Answers, pointer: string, formId: string = FORM_ID): string {
  const error = validateAnswers(testForm(formId), answers).errors.find((e) => e.path === pointer);
  if (!error) throw new Error(`no message at ${pointer}`);
  return error.message;
}

/** The message for a missing answer, from the schema's `errorMessage.required`. */
export function requiredMessage(key: string): string {
  return messageFor({}, `/${key}`);
}

/** Bytes that start as the named kind of file does (its signature), for the upload widgets. */
export const FILE_STARTS = {
  pdf: '%PDF-1.7\n',
  png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
};
