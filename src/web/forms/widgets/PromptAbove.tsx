import type { ReactNode } from 'react';
import FormLabel from '@mui/material/FormLabel';

/**
 * Prompts longer than this are drawn above their input, wrapping over as many lines as they
 * need, instead of as the label inside the input's outline: that label holds one line and cut a
 * long prompt short ("…self-clearing firms give their own na…", issue 38 §4). The lengths are
 * what fits one line of an empty input: about 350 px wide on a phone, and a short answer's
 * (`"width": "short"`, 18rem) on every screen.
 */
const LONG_PROMPT = { full: 40, short: 30 } as const;

/**
 * Whether `prompt` is drawn above its input (see {@link PromptAbove}); `width` is the question's
 * `ui:options.width`.
 */
export function isLongPrompt(prompt: ReactNode, width?: unknown): prompt is string {
  const limit = width === 'short' ? LONG_PROMPT.short : LONG_PROMPT.full;
  return typeof prompt === 'string' && prompt.length > limit;
}

/**
 * A long prompt above the input it labels (`htmlFor` its id), as the file questions draw theirs;
 * the input then goes without a label of its own.
 */
export function PromptAbove({
  id,
  prompt,
  required,
  disabled,
}: {
  id: string;
  prompt: string;
  required?: boolean;
  disabled?: boolean;
}) {
  return (
    <FormLabel
      htmlFor={id}
      required={required}
      disabled={disabled}
      sx={{ display: 'block', mb: 1 }}
    >
      {prompt}
    </FormLabel>
  );
}
