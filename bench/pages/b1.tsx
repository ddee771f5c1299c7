/**
 * B1, the naive way: stock `<Form>` from @rjsf/mui, controlled, with `liveValidate`, Ajv compiled
 * lazily in the browser by @rjsf/validator-ajv8's customizeValidator with ajv-errors (the
 * project's Ajv options), and rjsf's default file widget: each file answer is a base64 data URL
 * inside form data. Same schema, with file answers as `format: data-url` strings and the engine's
 * custom widget names dropped from the uiSchema (stock rjsf has no such widgets).
 */
import { useState } from 'react';
import Form from '@rjsf/mui';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { RJSF_VALIDATOR_OPTIONS } from '../../src/shared/forms/validation/ajvConfig';
import type { Answers, JsonSchema } from '../../src/shared/forms/model/schemaTypes';
import { mount } from './probe';
import { exampleAnswers, form, Frame } from './shared';

/** Widget names stock rjsf knows; the engine's own (ssn, phone, imageUpload, …) are dropped. */
const STOCK_WIDGETS = new Set([
  'text',
  'email',
  'textarea',
  'select',
  'radio',
  'checkbox',
  'updown',
]);

function stockSchema(schema: JsonSchema): RJSFSchema {
  const copy = structuredClone(schema) as RJSFSchema & { $defs: Record<string, RJSFSchema> };
  for (const [name, definition] of Object.entries(copy.$defs)) {
    if ((definition as JsonSchema)['x-file']) {
      copy.$defs[name] = { type: 'string', format: 'data-url' };
    }
  }
  return copy;
}

function stockUiSchema(ui: unknown): UiSchema {
  if (Array.isArray(ui) || typeof ui !== 'object' || ui === null) return ui as UiSchema;
  const out: UiSchema = {};
  for (const [key, value] of Object.entries(ui)) {
    if (key === 'ui:widget' && !STOCK_WIDGETS.has(String(value))) continue;
    out[key] = key.startsWith('ui:') ? value : stockUiSchema(value);
  }
  return out;
}

const schema = stockSchema(form.schema);
const uiSchema = stockUiSchema(form.uiSchema);
const validator = customizeValidator<Answers>(RJSF_VALIDATOR_OPTIONS);

function dataUrlBytes(answers: Answers): number {
  return Object.values(answers)
    .filter((value): value is string => typeof value === 'string' && value.startsWith('data:'))
    .reduce((sum, value) => sum + value.length, 0);
}

function StockForm() {
  const [answers, setAnswers] = useState<Answers>(() => exampleAnswers({ withFiles: false }));
  const onChange = (event: IChangeEvent<Answers>) => {
    const next = event.formData ?? {};
    window.bench.info.dataUrlBytes = dataUrlBytes(next);
    setAnswers(next);
  };
  return (
    <Form
      schema={schema}
      uiSchema={uiSchema}
      validator={validator}
      formData={answers}
      onChange={onChange}
      liveValidate="onChange"
    />
  );
}

mount(
  <Frame>
    <StockForm />
  </Frame>,
);
