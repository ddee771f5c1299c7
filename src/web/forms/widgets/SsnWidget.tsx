import type { WidgetProps } from '@rjsf/utils';
import { formatSsn } from '../format';
import type { Parsed } from '../useBufferedText';
import { TextInput } from './TextInput';

const parseSsn = (raw: string): Parsed => {
  const text = formatSsn(raw);
  return { text, value: text === '' ? undefined : text };
};

/** Social security number: formatted NNN-NN-NNNN as typed and on paste, at most 11 characters. */
export function SsnWidget(props: WidgetProps) {
  return (
    <TextInput {...props} parse={parseSsn} maxLength={11} inputMode="numeric" autoComplete="off" />
  );
}
