import { useEffect, useRef } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { DEFAULT_COUNTRY, regionChoices } from '../countries';
import { engineOf, siblingPointer, useAnswerAt, useFieldPointer } from '../engine';
import { stringOption } from './a11y';
import { SelectInput } from './SelectInput';
import { TextInput } from './TextInput';

/**
 * Region (state, province) of the country answered beside it: the sibling property named by
 * `ui:options.countryField` (default 'country'). The choices follow that country; the answer is
 * the region's code or, for regions without one, its name. When the country changes and the
 * region is not one of its regions, the region is cleared. A country without a region list gets
 * a text input.
 */
export function RegionWidget(props: WidgetProps) {
  const { value, onChange, options, registry } = props;
  const pointer = useFieldPointer();
  const countryField = stringOption(options, 'countryField', 'country');
  const answer = useAnswerAt(engineOf(registry), siblingPointer(pointer, countryField));
  const country = typeof answer === 'string' && answer !== '' ? answer : DEFAULT_COUNTRY;
  const choices = regionChoices(country);

  const previousCountry = useRef(country);
  useEffect(() => {
    if (previousCountry.current === country) return;
    previousCountry.current = country;
    if (value !== undefined && !choices.some((choice) => choice.value === value)) {
      onChange(undefined);
    }
  }, [country, choices, value, onChange]);

  if (choices.length === 0) return <TextInput {...props} />;
  return <SelectInput {...props} choices={choices} allowEmpty />;
}
