import { useMemo, useSyncExternalStore } from 'react';
import Typography from '@mui/material/Typography';
import { fillValues, ruleValuesAt } from '../../../shared/forms/validation/ruleValues';
import type { FormSession } from '../session';

/**
 * A list's running figure (`ui:options.valuesText`: 'Direct ownership listed so far: {total} %'),
 * computed by the rule across answers shown at the list as the answers change; nothing while a
 * value cannot be computed yet. Its changes are announced politely (`aria-live`).
 */
export function RuleValuesLine({
  formContext,
  pointer,
  text,
}: {
  /** rjsf's formContext, where SchemaForm puts the page's session. */
  formContext: unknown;
  pointer: string;
  text: unknown;
}) {
  const session =
    formContext && typeof formContext === 'object' && 'session' in formContext
      ? (formContext as { session?: FormSession }).session
      : undefined;
  const store = session?.engine.answers;
  const answers = useSyncExternalStore(store?.subscribe ?? noSubscribe, store?.get ?? noAnswers);
  const line = useMemo(
    () =>
      typeof text === 'string' && session
        ? fillValues(text, ruleValuesAt(session.form.schema, answers, pointer))
        : undefined,
    [text, session, answers, pointer],
  );
  if (!line) return null;
  return (
    <Typography variant="body2" aria-live="polite" sx={{ my: 1 }}>
      {line}
    </Typography>
  );
}

const noSubscribe = () => () => {};
const noAnswers = () => undefined;
