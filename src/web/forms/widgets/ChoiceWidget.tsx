import { useMemo } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import type { Choice } from '../countries';
import { SelectInput } from './SelectInput';

/**
 * A single choice among the schema's options (`oneOf` titles or `ui:enumNames`) as a native
 * select: opens with the keyboard and screen readers like any select, and stays cheap to render.
 * Starts with an empty choice, so nothing is answered for the user.
 */
export function ChoiceWidget(props: WidgetProps) {
  const { options } = props;
  const choices = useMemo<Choice[]>(
    () =>
      (options.enumOptions ?? []).map((option) => ({
        value: String(option.value),
        label: option.label,
      })),
    [options.enumOptions],
  );
  return <SelectInput {...props} choices={choices} allowEmpty />;
}
