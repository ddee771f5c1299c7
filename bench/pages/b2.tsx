/**
 * B2, the fast hand-written peer: react-hook-form (uncontrolled `register`) with MUI inputs, one
 * per leaf field of the individual schema (a generated flat list, in form order, titles as
 * labels), prefilled with the example answers. File answers are plain file inputs (a FileList in
 * the form state, no bytes read).
 */
import { useForm, type UseFormRegister } from 'react-hook-form';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { deref, fieldsInOrder, type FieldInfo } from '../../src/shared/forms/schemaWalk';
import type { Answers, JsonSchema } from '../../src/shared/forms/schemaTypes';
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
  const choices = options(schema);
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

function HookForm() {
  const { register, handleSubmit } = useForm<Answers>({
    defaultValues: exampleAnswers({ withFiles: false }),
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
