import type { ChangeEvent } from 'react';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import type { WidgetProps } from '@rjsf/utils';
import { describedBy } from './a11y';

/**
 * A yes/no question as two radios; the answer is a boolean. The option labels are rjsf's
 * (`ui:enumNames` or `oneOf` titles in the schema, else rjsf's Yes/No).
 */
export function YesNoWidget(props: WidgetProps) {
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
    options,
    onChange,
    onBlur,
    onFocus,
  } = props;
  const labelId = `${id}-label`;
  const choices = options.enumOptions ?? [
    { label: 'Yes', value: true },
    { label: 'No', value: false },
  ];
  const current = typeof value === 'boolean' ? String(value) : '';
  const handleChange = (_event: ChangeEvent<HTMLInputElement>, next: string) => {
    const answer = next === 'true';
    onChange(answer);
    onBlur(id, answer);
  };
  return (
    <>
      {!hideLabel && label ? (
        <FormLabel id={labelId} required={required}>
          {label}
        </FormLabel>
      ) : null}
      <RadioGroup
        row
        id={id}
        name={htmlName || id}
        value={current}
        onChange={handleChange}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
        aria-labelledby={!hideLabel && label ? labelId : undefined}
        aria-label={hideLabel ? label : undefined}
        aria-describedby={describedBy(id, { rawErrors, schema, uiSchema })}
        aria-required={required}
        aria-invalid={!!rawErrors && rawErrors.length > 0}
      >
        {choices.map((choice, index) => (
          <FormControlLabel
            key={index}
            value={String(choice.value)}
            control={<Radio id={`${id}-${index}`} />}
            label={choice.label}
            disabled={disabled || readonly}
          />
        ))}
      </RadioGroup>
    </>
  );
}
