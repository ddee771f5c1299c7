import { startTransition, useCallback, useEffect, useRef, useState } from 'react';

/** How long typing must pause before a text answer is committed to the form (blur commits at once). */
const COMMIT_DELAY_MS = 200;

export interface Parsed {
  /** What the input shows after formatting. */
  text: string;
  /** The answer it stands for (undefined when empty). */
  value: unknown;
}

export const plainText = (text: string): Parsed => ({
  text,
  value: text === '' ? undefined : text,
});

type TextElement = HTMLInputElement | HTMLTextAreaElement;

/**
 * Keeps keystrokes out of React: the input is uncontrolled, so a keystroke re-renders nothing;
 * formatting (an SSN's hyphens) is written to the input directly. The answer is committed to rjsf
 * (which re-renders the form) after a short pause in typing, on blur and on Enter. When the
 * answer changes from outside (draft restore, reset), `revision` changes: the caller keys the
 * input by it, so the input starts again from the new text.
 *
 * The commit after a pause is a transition: rjsf's re-render of the whole form (20-25 ms on the
 * individual form in a trace) then yields to the browser, so a key typed just after the pause is
 * drawn at once instead of waiting behind it (the keystroke p95 of `npm run bench`). Blur and
 * Enter commit urgently, and first make a commit still in transition urgent, so a submit or a
 * validation on leaving the field always sees the answer.
 */
export function useBufferedText(
  value: unknown,
  onChange: (value: unknown) => void,
  parse: (raw: string) => Parsed,
  toText: (value: unknown) => string = defaultToText,
) {
  const inputRef = useRef<TextElement | null>(null);
  const [shown, setShown] = useState(() => ({ revision: 0, text: toText(value) }));
  const [seen, setSeen] = useState(value);
  const [sent, setSent] = useState<unknown>(value);
  const pending = useRef<{ value: unknown } | null>(null);
  /** An answer committed in a transition that rjsf has not handed back yet. */
  const inTransition = useRef<{ value: unknown } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  if (value !== seen) {
    setSeen(value);
    // An answer we did not send (restore, reset): show it. Our own commits echo back unchanged.
    if (value !== sent) {
      setSent(value);
      setShown({ revision: shown.revision + 1, text: toText(value) });
    }
  }

  /** Commits the pending answer now (blur, Enter), with a commit still in transition. */
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const next = pending.current ?? inTransition.current;
    pending.current = null;
    inTransition.current = null;
    if (!next) return;
    setSent(next.value);
    onChange(next.value);
  }, [onChange]);

  /** The pause in typing: the pending answer is committed as a transition. */
  const commitAfterPause = useCallback(() => {
    timer.current = undefined;
    const next = pending.current;
    if (!next) return;
    pending.current = null;
    inTransition.current = next;
    startTransition(() => {
      setSent(next.value);
      onChange(next.value);
    });
  }, [onChange]);

  // A new answer from rjsf: the transition's (or an answer set since, which supersedes it).
  useEffect(() => {
    inTransition.current = null;
  }, [value]);

  const change = useCallback(
    (raw: string) => {
      const parsed = parse(raw);
      const input = inputRef.current;
      if (input && input.value !== parsed.text) input.value = parsed.text;
      pending.current = { value: parsed.value };
      clearTimeout(timer.current);
      timer.current = setTimeout(commitAfterPause, COMMIT_DELAY_MS);
      return parsed;
    },
    [parse, commitAfterPause],
  );

  /** What the input shows now (the DOM is the truth of an uncontrolled input). */
  const currentText = useCallback(() => inputRef.current?.value ?? shown.text, [shown.text]);

  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    initialText: shown.text,
    revision: shown.revision,
    currentText,
    inputRef,
    change,
    flush,
  };
}

function defaultToText(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}
