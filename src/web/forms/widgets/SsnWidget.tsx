import type { WidgetProps } from '@rjsf/utils';
import { SSN_MAX_LENGTH } from '../../../shared/rules/ssn';
import { formatSsn } from '../format';
import type { Parsed } from '../useBufferedText';
import { TextInput } from './TextInput';

const parseSsn = (raw: string): Parsed => {
  const text = formatSsn(raw);
  return { text, value: text === '' ? undefined : text };
};

/** Social security number: formatted NNN-NN-NNNN as typed and on paste (the whole pasted text,
 * so any paste holding nine digits gives the number), at most 11 characters. */
export function SsnWidget(props: WidgetProps) {
  return (
    <TextInput
      {...props}
      parse={parseSsn}
      maxLength={SSN_MAX_LENGTH}
      inputMode="numeric"
      autoComplete="off"
    />
  );
}
