/**
 * OURS: the engine's SchemaForm exactly as the registration page sets it up (stable schema
 * and uiSchema, the precompiled validator, the files store), prefilled with the example answers.
 */
import type { RJSFSchema } from '@rjsf/utils';
import { createRjsfValidator } from '../../src/shared/forms/validation/rjsfErrors';
import { SchemaForm } from '../../src/web/forms/SchemaForm';
import { mount } from './probe';
import { exampleAnswers, form, FORM_ID, Frame } from './shared';

const schema = form.schema as RJSFSchema;
const uiSchema = {
  ...form.uiSchema,
  'ui:options': { ...(form.uiSchema['ui:options'] as object | undefined), label: false },
};
const validator = createRjsfValidator(form);
const initialAnswers = exampleAnswers({ withFiles: false });

mount(
  <Frame>
    <SchemaForm
      formId={FORM_ID}
      schema={schema}
      uiSchema={uiSchema}
      validator={validator}
      formData={initialAnswers}
      onSubmit={() => undefined}
    />
  </Frame>,
);
