/**
 * OURS: the engine's SchemaForm exactly as the registration page sets it up (the compiled form
 * with its precompiled validator, its title left to the page, the files store), prefilled with
 * the example answers.
 */
import { SchemaForm } from '../../src/web/forms/SchemaForm';
import { mount } from './probe';
import { exampleAnswers, form, Frame } from './shared';

const initialAnswers = exampleAnswers({ withFiles: false });

mount(
  <Frame>
    <SchemaForm form={form} ownHeading formData={initialAnswers} onSubmit={() => undefined} />
  </Frame>,
);
