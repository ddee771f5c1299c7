import { useMemo } from 'react';
import { Theme } from '@rjsf/mui';
import { enumOptionsIndexForValue, enumOptionsValueForIndex, type WidgetProps } from '@rjsf/utils';
import type { Choice } from '../countries';
import { isEnumDisabled } from './enumOptions';
import { SelectInput } from './SelectInput';

const MultiSelect = Theme.widgets!.SelectWidget!;

/**
 * A single choice among the schema's options (`oneOf` titles or `ui:enumNames`) as a native
 * select: opens with the keyboard and screen readers like any select, and stays cheap to render.
 * Starts with an empty choice, so nothing is answered for the user. The answer is the option's
 * value itself, so numbers, booleans and objects stay what the schema says (not their text):
 * options whose values are all strings carry them in the page (what autofill and tests see),
 * any other list is chosen by index, as rjsf's own selects are. `ui:enumDisabled` options are
 * shown but cannot be chosen. A multi-select (an array of unique choices) is rjsf-mui's select,
 * which holds a list.
 */
export function ChoiceWidget(props: WidgetProps) {
  const { options, value, onChange, multiple } = props;
  const { enumOptions = [], enumDisabled, emptyValue } = options;
  const byText = enumOptions.every((option) => typeof option.value === 'string');
  const choices = useMemo<Choice[]>(
    () =>
      enumOptions.map((option, index) => ({
        value: byText ? String(option.value) : String(index),
        label: option.label,
        disabled: isEnumDisabled(enumDisabled, option.value),
      })),
    [enumOptions, enumDisabled, byText],
  );
  if (multiple) return <MultiSelect {...props} />;
  const selected = byText ? value : enumOptionsIndexForValue(value, enumOptions);
  const answerOf = (choice: unknown): unknown => {
    if (typeof choice !== 'string') return emptyValue;
    return byText ? choice : enumOptionsValueForIndex(choice, enumOptions, emptyValue);
  };
  return (
    <SelectInput
      {...props}
      value={typeof selected === 'string' ? selected : ''}
      onChange={(choice: unknown) => onChange(answerOf(choice))}
      choices={choices}
      allowEmpty
    />
  );
}
