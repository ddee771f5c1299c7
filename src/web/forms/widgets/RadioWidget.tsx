import type { ChangeEvent } from 'react';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { enumOptionsIndexForValue, enumOptionsValueForIndex, type WidgetProps } from '@rjsf/utils';
import { describedBy } from './a11y';
import { isEnumDisabled } from './enumOptions';

/**
 * A single choice among a few options as radios (`ui:widget: radio`). Unlike rjsf-mui's radio
 * widget, the group is named by the prompt (`aria-labelledby`), so a screen reader announces the
 * question with each option, and is tied to its errors. Option labels are rjsf's (`oneOf` titles
 * or `ui:enumNames`); each radio's id is `<id>-<index>`, as rjsf's.
 */
export function RadioWidget(props: WidgetProps) {
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
  const { enumOptions = [], enumDisabled, emptyValue } = options;
  const labelId = `${id}-label`;
  const showLabel = !hideLabel && !!label;
  const selected = enumOptionsIndexForValue(value, enumOptions);
  const current = typeof selected === 'string' ? selected : '';
  const handleChange = (_event: ChangeEvent<HTMLInputElement>, index: string) => {
    const answer: unknown = enumOptionsValueForIndex(index, enumOptions, emptyValue);
    onChange(answer);
    onBlur(id, answer);
  };
  return (
    <>
      {showLabel ? (
        <FormLabel id={labelId} required={required}>
          {label}
        </FormLabel>
      ) : null}
      <RadioGroup
        row={options.inline !== false}
        id={id}
        name={htmlName || id}
        value={current}
        onChange={handleChange}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
        aria-labelledby={showLabel ? labelId : undefined}
        aria-label={showLabel ? undefined : label || undefined}
        aria-describedby={describedBy(id, { rawErrors, schema, uiSchema })}
        aria-required={required}
        aria-invalid={!!rawErrors && rawErrors.length > 0}
      >
        {enumOptions.map((option, index) => (
          <FormControlLabel
            key={index}
            value={String(index)}
            control={<Radio id={`${id}-${index}`} />}
            label={option.label}
            disabled={disabled || readonly || isEnumDisabled(enumDisabled, option.value)}
          />
        ))}
      </RadioGroup>
    </>
  );
}
