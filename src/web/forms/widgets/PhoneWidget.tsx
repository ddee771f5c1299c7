import { useCallback, useEffect, useRef, useState } from 'react';
import Button from '@mui/material/Button';
import type { WidgetProps } from '@rjsf/utils';
import type { CountryCode } from 'libphonenumber-js';
import { internationalSuggestion } from '../../../shared/rules/phone';
import { COUNTRY_CHOICES } from '../countries';
import { formatInternational, formatPhone, type FormattedPhone } from '../format';
import type { Parsed } from '../useBufferedText';
import { stringOption } from './a11y';
import { TextInput } from './TextInput';

/** The spec's placeholder (business §3.8); a uiSchema `ui:placeholder` overrides it. */
const PLACEHOLDER = '+1 123 456 7890';
/** Helper text template, `{country}` replaced; uiSchema option `countryDetectedText` overrides it. */
const DETECTED = 'Country code detected: {country}';
/** The form's default country (spec §9), whose national numbers get the one-click fix. */
const DEFAULT_COUNTRY: CountryCode = 'US';

const parsePhone = (raw: string): FormattedPhone => formatPhone(raw);
const phoneText = (value: unknown): string =>
  typeof value === 'string' ? formatInternational(value) : '';

let namesByCode: Map<string, string> | undefined;
/**
 * The country's name as the form's country questions name it (one list for the whole form).
 * Not Intl.DisplayNames: its first use loads the browser's region data, about 20 ms on a slow
 * machine, paid by every restored application with a phone number as it opens.
 */
function countryName(code: string): string {
  namesByCode ??= new Map(COUNTRY_CHOICES.map((choice) => [choice.value, choice.label]));
  return namesByCode.get(code) ?? code;
}

/** The schema's wording of the fix ('Did you mean {number}?'), when it has one. */
function suggestionWording(schema: WidgetProps['schema']): string | undefined {
  const messages = (schema as { 'x-phone'?: { suggestion?: unknown } })['x-phone'];
  return typeof messages?.suggestion === 'string' ? messages.suggestion : undefined;
}

/**
 * International phone number (business §4): a '+' is prepended when the text lacks one and the
 * number is grouped with libphonenumber-js as typed and on paste, stored as '+' and digits; a
 * restored answer is shown grouped. Once the number's country is known (and there is no error),
 * a helper text names it. A national number that got the '+' reads as no valid number (3035550123
 * as +30…): when its digits are a valid number of the default country, a button under it offers
 * that number in one click, worded by the schema's `x-phone.suggestion`, and the helper text
 * (which would name the wrong country) gives way to it.
 */
export function PhoneWidget(props: WidgetProps) {
  const { id, value, options, schema, disabled, readonly, onChange, onBlur } = props;
  const [country, setCountry] = useState<string | undefined>(() =>
    typeof value === 'string' ? formatPhone(value).country : undefined,
  );
  const [typed, setTyped] = useState(() => (typeof value === 'string' ? value : ''));
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setCountry(typeof value === 'string' ? formatPhone(value).country : undefined);
    setTyped(typeof value === 'string' ? value : '');
  }
  const onParsed = useCallback((parsed: Parsed) => {
    setCountry((parsed as FormattedPhone).country);
    setTyped(parsed.text);
  }, []);
  const wording = suggestionWording(schema);
  const defaultCountry = stringOption(options, 'defaultCountry', DEFAULT_COUNTRY) as CountryCode;
  const suggestion =
    wording && !readonly && typed !== '' ? internationalSuggestion(typed, defaultCountry) : null;

  // After the fix is taken the button is gone: focus goes back to the number, not the page.
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    document.getElementById(id)?.focus();
  }, [id, value]);
  const takeSuggestion = () => {
    if (!suggestion) return;
    refocus.current = true;
    onChange(suggestion);
    onBlur(id, suggestion);
  };

  const helperText =
    country && !suggestion
      ? stringOption(options, 'countryDetectedText', DETECTED).replace(
          '{country}',
          countryName(country),
        )
      : undefined;
  return (
    <>
      <TextInput
        {...props}
        placeholder={props.placeholder || PLACEHOLDER}
        parse={parsePhone}
        toText={phoneText}
        onParsed={onParsed}
        helperText={helperText}
        inputMode="tel"
        autoComplete="tel"
        maxLength={250}
      />
      {suggestion && wording ? (
        <Button
          id={`${id}-suggestion`}
          size="small"
          disabled={disabled}
          onClick={takeSuggestion}
          sx={{ alignSelf: 'flex-start' }}
        >
          {wording.replace('{number}', formatInternational(suggestion))}
        </Button>
      ) : null}
    </>
  );
}
