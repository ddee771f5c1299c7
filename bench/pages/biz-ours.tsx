/**
 * OURS, Business Details: the engine's SchemaForm with the business form (the user step's
 * questions hidden; the affiliated persons as the dialog list), 50 persons listed, the
 * precompiled validators of the business and affiliated-person forms.
 */
import 'virtual:form-validators/business';
import 'virtual:form-validators/affiliated-person';
import type { RJSFSchema } from '@rjsf/utils';
import { createRjsfValidator } from '../../src/shared/forms/rjsfErrors';
import { SchemaForm } from '../../src/web/forms/SchemaForm';
import { mount } from './probe';
import { Frame } from './shared';
import { BUSINESS_FORM_ID, businessAnswers, businessSchema, oursUiSchema } from './business';

const schema = businessSchema as RJSFSchema;

/**
 * Click → first paint with the dialog: a capture-phase click listener notes the event's
 * timeStamp, each animation frame looks for the dialog, and in the first frame that has it
 * setTimeout(0) marks the paint (as the keystroke probe does). Samples go to
 * `bench.info.dialogOpen` once the driver has put an array there; `dialogFormReady` the same up
 * to the first frame whose dialog holds the form's inputs.
 */
document.addEventListener(
  'click',
  (event) => {
    const samples = window.bench.info.dialogOpen;
    const ready = window.bench.info.dialogFormReady;
    if (!Array.isArray(samples) || !Array.isArray(ready)) return;
    const start = event.timeStamp;
    const mark = (selector: string, into: number[]) => {
      const look = () => {
        if (document.querySelector(selector)) {
          setTimeout(() => into.push(performance.now() - start), 0);
        } else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    };
    mark('[role=dialog]', samples);
    mark('[role=dialog] form input', ready);
  },
  { capture: true },
);
const validator = createRjsfValidator(BUSINESS_FORM_ID);
const initialAnswers = businessAnswers();

mount(
  <Frame>
    <SchemaForm
      formId="bench-business"
      keepDraft={false}
      schema={schema}
      uiSchema={oursUiSchema}
      validator={validator}
      formData={initialAnswers}
      onSubmit={() => undefined}
    />
  </Frame>,
);
