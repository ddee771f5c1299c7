import { useCallback, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { formatPhone, type FormattedPhone } from '../format';
import type { Parsed } from '../useBufferedText';
import { stringOption } from './a11y';
import { TextInput } from './TextInput';

/** The spec's placeholder (business §3.8); a uiSchema `ui:placeholder` overrides it. */
const PLACEHOLDER = '+1 123 456 7890';
/** Helper text template, `{country}` replaced; uiSchema option `countryDetectedText` overrides it. */
const DETECTED = 'Country code detected: {country}';

const parsePhone = (raw: string): FormattedPhone => formatPhone(raw);

let regionNames: Intl.DisplayNames | undefined;
function countryName(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
  return regionNames.of(code) ?? code;
}

/**
 * International phone number: '+' prepended, grouped with libphonenumber-js as typed and on paste,
 * stored as '+' and digits. Once the number's country is known (and there is no error), a helper
 * text names it.
 */
export function PhoneWidget(props: WidgetProps) {
  const { value, options } = props;
  const [country, setCountry] = useState<string | undefined>(() =>
    typeof value === 'string' ? formatPhone(value).country : undefined,
  );
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setCountry(typeof value === 'string' ? formatPhone(value).country : undefined);
  }
  const onParsed = useCallback((parsed: Parsed) => {
    setCountry((parsed as FormattedPhone).country);
  }, []);
  const helperText = country
    ? stringOption(options, 'countryDetectedText', DETECTED).replace(
        '{country}',
        countryName(country),
      )
    : undefined;
  return (
    <TextInput
      {...props}
      placeholder={props.placeholder || PLACEHOLDER}
      parse={parsePhone}
      onParsed={onParsed}
      helperText={helperText}
      inputMode="tel"
      autoComplete="tel"
      maxLength={250}
    />
  );
}
