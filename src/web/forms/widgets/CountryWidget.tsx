import { useEffect } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { COUNTRY_CHOICES, DEFAULT_COUNTRY } from '../countries';
import { SelectInput } from './SelectInput';

/**
 * Country select (country-region-data), answer the two-letter code. With no answer and no schema
 * default it commits the United States, the spec's default, unless `ui:options.allowEmpty` makes
 * it an optional choice that starts empty (a passport's country of issuance: default none).
 */
export function CountryWidget(props: WidgetProps) {
  const { value, onChange, readonly, disabled, schema, options } = props;
  const allowEmpty = options.allowEmpty === true;
  const missing =
    !allowEmpty && value === undefined && schema.default === undefined && !readonly && !disabled;
  useEffect(() => {
    if (missing) onChange(DEFAULT_COUNTRY);
  }, [missing, onChange]);
  if (allowEmpty) return <SelectInput {...props} choices={COUNTRY_CHOICES} allowEmpty />;
  return <SelectInput {...props} value={value ?? DEFAULT_COUNTRY} choices={COUNTRY_CHOICES} />;
}
