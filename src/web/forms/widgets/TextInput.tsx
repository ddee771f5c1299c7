import {
  memo,
  useCallback,
  type ChangeEvent,
  type ClipboardEvent,
  type HTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import TextField from '@mui/material/TextField';
import { labelValue, type WidgetProps } from '@rjsf/utils';
import { plainText, useBufferedText, type Parsed } from '../useBufferedText';
import { describedBy } from './a11y';

export interface TextInputProps extends WidgetProps {
  /** Formats what was typed or pasted and derives the answer from it. */
  parse?: (raw: string) => Parsed;
  /** Shown under the input when there is no error. */
  helperText?: ReactNode;
  maxLength?: number;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  type?: string;
  multiline?: boolean;
  rows?: number;
  autoComplete?: string;
  /** Called with the formatted result of every keystroke or paste. */
  onParsed?: (parsed: Parsed) => void;
  /** What the input shows for an answer set from outside (a restored draft); default String. */
  toText?: (value: unknown) => string;
}

/**
 * The text input every text-like widget renders (our BaseInputTemplate too): an MUI TextField
 * whose keystrokes stay local (see useBufferedText), with its label, errors and helper text tied
 * to the input by `aria-describedby`.
 */
export const TextInput = memo(function TextInput(props: TextInputProps) {
  const {
    id,
    htmlName,
    value,
    label,
    hideLabel,
    required,
    disabled,
    readonly,
    placeholder,
    rawErrors,
    schema,
    uiSchema,
    options,
    onChange,
    onBlur,
    onFocus,
    parse,
    helperText,
    maxLength,
    inputMode,
    type,
    multiline,
    rows,
    autoComplete,
    onParsed,
    toText,
  } = props;
  const emptyValue: unknown = options.emptyValue;
  const parseText = useCallback(
    (raw: string): Parsed => {
      const parsed = parse ? parse(raw) : plainText(raw);
      return parsed.value === undefined ? { ...parsed, value: emptyValue } : parsed;
    },
    [parse, emptyValue],
  );
  const { initialText, currentText, revision, inputRef, change, flush } = useBufferedText(
    value,
    onChange,
    parseText,
    toText,
  );
  const hasErrors = !!rawErrors && rawErrors.length > 0;
  const helperId = `${id}-helper-text`;
  const showHelper = !hasErrors && !!helperText;

  const handleChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const parsed = change(event.target.value);
    onParsed?.(parsed);
  };
  // A formatted input takes the whole pasted text: the browser would cut it at `maxLength`
  // before formatting ('SSN: 987-65-4321' to 'SSN: 987-65'), losing digits the format keeps.
  const handlePaste = (event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const input = event.currentTarget;
    const pasted = event.clipboardData.getData('text');
    event.preventDefault();
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? start;
    const parsed = change(input.value.slice(0, start) + pasted + input.value.slice(end));
    onParsed?.(parsed);
  };
  const handleBlur = () => {
    flush();
    onBlur(id, currentText());
  };
  const handleKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') flush();
  };

  return (
    <TextField
      key={revision}
      inputRef={inputRef}
      id={id}
      name={htmlName || id}
      label={labelValue(label || undefined, hideLabel, undefined)}
      defaultValue={initialText}
      placeholder={
        placeholder || (typeof options.placeholder === 'string' ? options.placeholder : '')
      }
      required={required}
      disabled={disabled}
      error={hasErrors}
      type={type === 'email' ? 'email' : type === 'password' ? 'password' : 'text'}
      multiline={multiline}
      rows={rows}
      fullWidth
      helperText={showHelper ? helperText : undefined}
      onChange={handleChange}
      onBlur={handleBlur}
      onFocus={() => onFocus(id, currentText())}
      onKeyDown={multiline ? undefined : handleKeyDown}
      slotProps={{
        htmlInput: {
          readOnly: readonly,
          maxLength,
          onPaste: parse && !readonly ? handlePaste : undefined,
          inputMode,
          autoComplete,
          ...(type === 'email' ? { autoCapitalize: 'none', autoCorrect: 'off' } : {}),
          'aria-describedby': describedBy(id, {
            rawErrors,
            schema,
            uiSchema,
            extra: [showHelper && helperId],
          }),
        },
      }}
    />
  );
});
