/**
 * B2, the fast hand-written peer: react-hook-form (uncontrolled `register`) with MUI inputs, one
 * per leaf field of the individual schema (a generated flat list, in form order, titles as
 * labels), prefilled with the example answers. File answers are plain file inputs (a FileList in
 * the form state, no bytes read). Country and region questions are native selects with the same
 * choice lists as the engine's widgets (spec: country select, regions of the answered country),
 * as any hand-written version of this form must draw them. Yes/no questions are a pair of
 * radios (spec: every yes/no question must be answered, so a lone checkbox, which cannot be left
 * unanswered, would not do); other booleans (the agreements) are checkboxes. `?simple=1` draws
 * the page as the bench first wrote it, country and region as free-text inputs and yes/no
 * questions as checkboxes (kept as a detail row).
 */
import { useForm, type UseFormRegister } from 'react-hook-form';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { deref, fieldsInOrder, type FieldInfo } from '../../src/shared/forms/walk/schemaWalk';
import { COUNTRY_CHOICES, regionChoices } from '../../src/web/forms/countries';
import type { Answers, JsonSchema } from '../../src/shared/forms/model/schemaTypes';
import { mount } from './probe';
import { exampleAnswers, form, Frame } from './shared';

const LEAVES = fieldsInOrder(form.schema, form.uiSchema).filter((field) => field.leaf);

function options(schema: JsonSchema): { value: string; label: string }[] | undefined {
  if (schema.oneOf?.every((choice) => choice.const !== undefined)) {
    return schema.oneOf.map((choice) => ({
      value: String(choice.const),
      label: choice.title ?? String(choice.const),
    }));
  }
  const values = schema.enum as unknown[] | undefined;
  return values?.map((value) => ({ value: String(value), label: String(value) }));
}

const example = exampleAnswers({ withFiles: false });

/** The example answer at a path of keys. */
function answerAt(keys: readonly string[]): unknown {
  let answer: unknown = example;
  for (const key of keys) answer = (answer as Record<string, unknown> | undefined)?.[key];
  return answer;
}

/** The page as first written: country and region as text, yes/no questions as checkboxes. */
const SIMPLE = new URLSearchParams(location.search).get('simple') === '1';

/** The uiSchema widget named for a field (`country`, `region`, `yesNo`). */
function widgetOf(field: FieldInfo): unknown {
  let ui: unknown = form.uiSchema;
  for (const key of field.keys) ui = (ui as Record<string, unknown> | undefined)?.[key];
  return (ui as Record<string, unknown> | undefined)?.['ui:widget'];
}

/** The choices of a country or region question, as the engine's widgets offer them. */
function placeChoices(field: FieldInfo): readonly { value: string; label: string }[] | undefined {
  if (SIMPLE) return undefined;
  const widget = widgetOf(field);
  if (widget === 'country') return COUNTRY_CHOICES;
  if (widget !== 'region') return undefined;
  const country = answerAt([...field.keys.slice(0, -1), 'country']);
  return regionChoices(typeof country === 'string' ? country : undefined);
}

function Leaf({ field, register }: { field: FieldInfo; register: UseFormRegister<Answers> }) {
  const schema = deref(field.schema, form.schema);
  const name = field.keys.join('.');
  const id = `root_${field.keys.join('_')}`;
  const label = field.schema.title ?? schema.title ?? field.keys.at(-1);
  const { ref, ...props } = register(name);
  if (schema['x-file']) {
    return (
      <TextField
        id={id}
        type="file"
        label={label}
        inputRef={ref}
        {...props}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    );
  }
  if (schema.type === 'boolean' && widgetOf(field) === 'yesNo' && !SIMPLE) {
    const labelId = `${id}-label`;
    return (
      <div>
        <FormLabel id={labelId}>{label}</FormLabel>
        <RadioGroup row aria-labelledby={labelId} defaultValue={String(answerAt(field.keys) ?? '')}>
          {[
            ['true', 'Yes'],
            ['false', 'No'],
          ].map(([value, text], index) => (
            <FormControlLabel
              key={value}
              value={value}
              label={text}
              control={
                <Radio
                  id={`${id}-${index}`}
                  slotProps={{ input: { ref } }}
                  name={props.name}
                  value={value}
                  onChange={props.onChange}
                  onBlur={props.onBlur}
                />
              }
            />
          ))}
        </RadioGroup>
      </div>
    );
  }
  if (schema.type === 'boolean') {
    return (
      <FormControlLabel
        control={
          <Checkbox
            id={id}
            slotProps={{ input: { ref } }}
            name={props.name}
            onChange={props.onChange}
            onBlur={props.onBlur}
          />
        }
        label={label}
      />
    );
  }
  const choices = placeChoices(field) ?? options(schema);
  if (choices) {
    return (
      <TextField
        id={id}
        select
        label={label}
        inputRef={ref}
        {...props}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        <option value="" />
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </TextField>
    );
  }
  const numeric = schema.type === 'integer' || schema.type === 'number';
  return (
    <TextField
      id={id}
      label={label}
      type={numeric ? 'number' : 'text'}
      multiline={Number(schema.maxLength ?? 0) > 500}
      inputRef={ref}
      {...props}
    />
  );
}

/** Radios hold strings: a yes/no answer's default is 'true' or 'false'. */
function yesNoAsText(answers: Answers): Answers {
  const copy = structuredClone(answers);
  for (const field of LEAVES) {
    if (widgetOf(field) !== 'yesNo') continue;
    let holder: Record<string, unknown> | undefined = copy;
    for (const key of field.keys.slice(0, -1)) {
      holder = holder?.[key] as Record<string, unknown> | undefined;
    }
    const key = field.keys.at(-1)!;
    if (holder && typeof holder[key] === 'boolean') holder[key] = String(holder[key]);
  }
  return copy;
}

function HookForm() {
  const { register, handleSubmit } = useForm<Answers>({
    defaultValues: SIMPLE ? example : yesNoAsText(example),
    mode: 'onTouched',
  });
  return (
    <form onSubmit={handleSubmit(() => undefined)} noValidate>
      <Stack spacing={2}>
        {LEAVES.map((field) => (
          <Leaf key={field.pointer} field={field} register={register} />
        ))}
      </Stack>
    </form>
  );
}

mount(
  <Frame>
    <HookForm />
  </Frame>,
);
