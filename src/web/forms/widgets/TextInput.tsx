import {
  memo,
  useCallback,
  useState,
  type AnimationEvent,
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
import { isLongPrompt, PromptAbove } from './PromptAbove';

interface TextInputProps extends WidgetProps {
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
  const fixedRows = multiline === true && rows !== undefined;
  const helperId = `${id}-helper-text`;
  const showHelper = !hasErrors && !!helperText;
  const typed = TYPED_INPUTS.has(type ?? 'text') || multiline === true;
  // Spaces at the ends of an answer mean nothing, except in a password (the server trims too).
  const trims = type !== 'password';

  // The label floats above the text whenever there is text. MUI learns that an uncontrolled
  // input is filled only from its own change and autofill events, and text written here (a
  // formatted paste, a trimmed blur) raises neither: the label stayed drawn over a pasted SSN.
  // So the label's place follows the text this component shows, set on every write.
  const [filledText, setFilledText] = useState({ revision, filled: initialText !== '' });
  const [focused, setFocused] = useState(false);
  const [autofilled, setAutofilled] = useState(false);
  if (filledText.revision !== revision) setFilledText({ revision, filled: initialText !== '' });
  const noteText = (text: string) => {
    const filled = text !== '';
    if (filled !== filledText.filled) setFilledText({ revision, filled });
  };
  const shrink = focused || filledText.filled || autofilled || ALWAYS_SHRUNK.has(type ?? 'text');

  const write = (raw: string) => {
    const parsed = change(raw);
    noteText(parsed.text);
    onParsed?.(parsed);
    return parsed;
  };
  const handleChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    write(event.target.value);
  };
  // The input takes the whole pasted text, its ends trimmed: a formatted input would otherwise
  // be cut at `maxLength` before formatting ('SSN: 987-65-4321' to 'SSN: 987-65'), and a postal
  // code copied as ' 10118 ' would fail its digits-only rule.
  const handlePaste = (event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const input = event.currentTarget;
    const pasted = event.clipboardData.getData('text');
    event.preventDefault();
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? start;
    const before = input.value.slice(0, start);
    const after = input.value.slice(end);
    const whole = before + pasted + after;
    const text = trims ? whole.trim() : whole;
    write(text);
    if (!parse) {
      // Plain text keeps the caret after what was pasted (writing the value moves it to the end).
      const caret = Math.max(
        0,
        Math.min(text.length, (before + pasted).length - leadingSpaces(whole)),
      );
      input.setSelectionRange(caret, caret);
    }
  };
  const handleBlur = () => {
    const text = currentText();
    if (trims && typed && !readonly && text !== text.trim()) write(text.trim());
    flush();
    setFocused(false);
    onBlur(id, currentText());
  };
  const handleAutofill = (event: AnimationEvent) => {
    // MUI's autofill animations (InputBase): Chromium fills the input before any change event.
    if (event.animationName === 'mui-auto-fill') setAutofilled(true);
    if (event.animationName === 'mui-auto-fill-cancel') {
      setAutofilled(false);
      noteText(currentText());
    }
  };
  const handleKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') flush();
  };

  const prompt = labelValue(label || undefined, hideLabel, undefined);
  const above = isLongPrompt(prompt, options.width);
  const field = (
    <TextField
      key={revision}
      inputRef={inputRef}
      id={id}
      name={htmlName || id}
      label={above ? undefined : prompt}
      defaultValue={initialText}
      placeholder={
        placeholder || (typeof options.placeholder === 'string' ? options.placeholder : '')
      }
      required={required}
      disabled={disabled}
      error={hasErrors}
      type={inputType(type)}
      multiline={multiline}
      rows={rows}
      fullWidth
      helperText={showHelper ? helperText : undefined}
      onChange={handleChange}
      onBlur={handleBlur}
      onFocus={() => {
        setFocused(true);
        onFocus(id, currentText());
      }}
      onKeyDown={multiline ? undefined : handleKeyDown}
      slotProps={{
        inputLabel: { shrink },
        input: fixedRows ? PLAIN_TEXTAREA.input : undefined,
        htmlInput: {
          ...(fixedRows ? PLAIN_TEXTAREA.htmlInput : {}),
          readOnly: readonly,
          maxLength,
          onPaste: typed && !readonly && (parse || trims) ? handlePaste : undefined,
          onAnimationStart: handleAutofill,
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
  if (!above) return field;
  return (
    <>
      <PromptAbove id={id} prompt={prompt} required={required} disabled={disabled} />
      {field}
    </>
  );
});

/**
 * The slot props that draw a multiline TextField of a fixed number of rows (`rows`) as a plain
 * textarea, as tall as MUI's: MUI's own is its autosizing textarea held at that size, which
 * measures itself in a layout effect (a forced layout of the page per textarea as the page first
 * draws; five of them on the business form's second step) to reach the height `rows` gives.
 */
export const PLAIN_TEXTAREA = {
  input: { inputComponent: 'textarea' },
  // A textarea has no type (MUI gives its input 'text').
  htmlInput: { type: undefined },
} as const;

/** Inputs whose value is text the user types and pastes (not a date, time, colour or number picker). */
const TYPED_INPUTS = new Set(['text', 'email', 'password', 'number', 'search', 'url', 'tel']);
/** Native inputs that always draw something (a date's 'mm/dd/yyyy'), so their label never sits over it. */
const ALWAYS_SHRUNK = new Set(['date', 'time', 'datetime-local', 'color']);
/** The input types drawn natively; a number is typed as text (rjsf's number field reads it). */
const NATIVE_TYPES = new Set(['email', 'password', 'date', 'time', 'datetime-local', 'color']);

function inputType(type: string | undefined): string {
  return type && NATIVE_TYPES.has(type) ? type : 'text';
}

function leadingSpaces(text: string): number {
  return text.length - text.trimStart().length;
}
