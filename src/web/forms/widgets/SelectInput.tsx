import { memo, type ChangeEvent } from 'react';
import TextField from '@mui/material/TextField';
import { labelValue, type WidgetProps } from '@rjsf/utils';
import type { Choice } from '../countries';
import { describedBy } from './a11y';
import { isLongPrompt, PromptAbove } from './PromptAbove';

interface SelectInputProps extends WidgetProps {
  choices: readonly Choice[];
  /** Offer an empty first choice (no answer yet). */
  allowEmpty?: boolean;
}

/** A native select in an MUI TextField: long lists stay cheap and fully keyboard-operable. */
export const SelectInput = memo(function SelectInput(props: SelectInputProps) {
  const {
    id,
    htmlName,
    value,
    label,
    hideLabel,
    required,
    disabled,
    readonly,
    rawErrors,
    schema,
    uiSchema,
    choices,
    allowEmpty,
    placeholder,
    options,
    onChange,
    onBlur,
    onFocus,
  } = props;
  const current = typeof value === 'string' ? value : '';
  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const next = event.target.value;
    onChange(next === '' ? undefined : next);
  };
  // A long prompt wraps above the select, as above a text input (its outline holds one line).
  const prompt = labelValue(label || undefined, hideLabel, undefined);
  const above = isLongPrompt(prompt, options.width);
  const field = (
    <TextField
      id={id}
      name={htmlName || id}
      select
      fullWidth
      label={above ? undefined : prompt}
      value={current}
      required={required}
      disabled={disabled || readonly}
      error={!!rawErrors && rawErrors.length > 0}
      onChange={handleChange}
      onBlur={() => onBlur(id, current)}
      onFocus={() => onFocus(id, current)}
      slotProps={{
        select: { native: true },
        inputLabel: { shrink: true },
        htmlInput: { 'aria-describedby': describedBy(id, { rawErrors, schema, uiSchema }) },
      }}
    >
      {allowEmpty || current === '' ? <option value="">{placeholder ?? ''}</option> : null}
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value} disabled={choice.disabled}>
          {choice.label}
        </option>
      ))}
    </TextField>
  );
  if (!above) return field;
  return (
    <>
      <PromptAbove id={id} prompt={prompt} required={required} disabled={disabled || readonly} />
      {field}
    </>
  );
});
