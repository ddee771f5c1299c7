import type { WidgetProps } from '@rjsf/utils';
import { formatDate } from '../format';
import type { Parsed } from '../useBufferedText';
import { TextInput } from './TextInput';

const parseDate = (raw: string): Parsed => {
  const text = formatDate(raw);
  return { text, value: text === '' ? undefined : text };
};

/** A date typed as MM/DD/YYYY, slashes added as the digits arrive; the answer is the text. */
export function DateWidget(props: WidgetProps) {
  return <TextInput {...props} parse={parseDate} maxLength={10} inputMode="numeric" />;
}
