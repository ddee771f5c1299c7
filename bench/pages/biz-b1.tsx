/**
 * B1, Business Details: stock `<Form>` from @rjsf/mui, controlled, `liveValidate`, Ajv compiled
 * lazily (the project's Ajv options), the 50 affiliated persons drawn inline as rjsf draws an
 * array of objects.
 */
import { useState } from 'react';
import Form from '@rjsf/mui';
import type { IChangeEvent } from '@rjsf/core';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { RJSF_VALIDATOR_OPTIONS } from '../../src/shared/forms/validation/ajvConfig';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { mount } from './probe';
import { Frame } from './shared';
import { businessAnswers, stepSchema, stepUiSchema, stockSchema, stockUiSchema } from './business';

const schema = stockSchema(stepSchema);
const uiSchema = stockUiSchema(stepUiSchema);
const validator = customizeValidator<Answers>(RJSF_VALIDATOR_OPTIONS);

function StockForm() {
  const [answers, setAnswers] = useState<Answers>(businessAnswers);
  return (
    <Form
      schema={schema}
      uiSchema={uiSchema}
      validator={validator}
      formData={answers}
      onChange={(event: IChangeEvent<Answers>) => setAnswers(event.formData ?? {})}
      liveValidate="onChange"
    />
  );
}

mount(
  <Frame>
    <StockForm />
  </Frame>,
);
