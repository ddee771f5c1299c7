import { useCallback, useEffect, useRef, useState } from 'react';
import Button from '@mui/material/Button';
import type { WidgetProps } from '@rjsf/utils';
import { isSupportedCountry, type CountryCode } from 'libphonenumber-js';
import { internationalSuggestion } from '../../../shared/rules/phone';
import { COUNTRY_CHOICES } from '../countries';
import { engineOf, useAnswerAt } from '../engine';
import { formatInternational, formatPhone, type FormattedPhone } from '../format';
import type { Parsed } from '../useBufferedText';
import { stringOption } from './a11y';
import { TextInput } from './TextInput';

/** The spec's placeholder (business §3.8); a uiSchema `ui:placeholder` overrides it. */
const PLACEHOLDER = '+1 123 456 7890';
/** Helper text template, `{country}` replaced; uiSchema option `countryDetectedText` overrides it. */
const DETECTED = 'Country code detected: {country}';
/** The form's default region (spec §9) when the uiSchema names none (`defaultCountry`). */
const DEFAULT_COUNTRY: CountryCode = 'US';

const regionOf = (answer: unknown): CountryCode | undefined =>
  typeof answer === 'string' && isSupportedCountry(answer) ? answer : undefined;
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
 * International phone number (business §4), grouped with libphonenumber-js as typed and on
 * paste, stored as '+' and digits; a restored answer is shown grouped. A number typed without '+'
 * is read in the applicant's region (issue 38 §1): the country answered at the uiSchema option
 * `countryFrom` (a JSON pointer: '/mailingAddress/country'), else `defaultCountry` (US), so
 * '(312) 555-0100' is +1 312 555 0100, never +31 (`formatPhone`). Once the number's country is
 * known (and there is no error), a helper text names it. A number typed with a '+' that is no
 * valid number ('+3035550123') but whose digits are one of the region's gets a button offering
 * that number in one click, worded by the schema's `x-phone.suggestion`, and the helper text
 * (which would name the wrong country) gives way to it.
 */
export function PhoneWidget(props: WidgetProps) {
  const { id, value, options, schema, disabled, readonly, onChange, onBlur, registry } = props;
  const countryFrom = stringOption(options, 'countryFrom', '');
  // No pointer, no subscription: the widget then never re-renders for another answer's keystroke.
  const answered = useAnswerAt(countryFrom ? engineOf(registry) : undefined, countryFrom);
  const region =
    (countryFrom ? regionOf(answered) : undefined) ??
    regionOf(stringOption(options, 'defaultCountry', DEFAULT_COUNTRY)) ??
    DEFAULT_COUNTRY;
  const parsePhone = useCallback(
    (raw: string): FormattedPhone => formatPhone(raw, region),
    [region],
  );
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
  // The number as typed without '+', read in the region: read again when the region changes
  // (the address country answered after the phone number).
  const national = useRef<string | null>(null);
  const onParsed = useCallback((parsed: Parsed) => {
    setCountry((parsed as FormattedPhone).country);
    setTyped(parsed.text);
    national.current = (parsed as FormattedPhone).readIn ? parsed.text : null;
  }, []);
  const readIn = useRef(region);
  useEffect(() => {
    if (readIn.current === region) return;
    readIn.current = region;
    if (national.current === null || readonly) return;
    const reread = formatPhone(national.current, region).value;
    if (reread !== undefined && reread !== value) onChange(reread);
  }, [region, readonly, value, onChange]);
  const wording = suggestionWording(schema);
  // Only a number typed with its '+' can be a wrong country's: one without is read in the region.
  const suggestion =
    wording && !readonly && typed.trim().startsWith('+')
      ? internationalSuggestion(typed, region)
      : null;

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

  // A number typed without '+' is shown as the international number it was read as once the
  // applicant leaves it ('(312) 555-0100' → '+1 312 555 0100'): what will be sent, seen.
  const showReadAs = (fieldId: string, text: unknown) => {
    const input = document.getElementById(fieldId);
    if (input instanceof HTMLInputElement && national.current !== null && input.value !== '') {
      const read = formatPhone(national.current, region);
      if (read.value) input.value = formatInternational(read.value);
    }
    onBlur(fieldId, text);
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
        onBlur={showReadAs}
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
