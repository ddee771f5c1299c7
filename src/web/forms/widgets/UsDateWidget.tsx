import type { WidgetProps } from '@rjsf/utils';
import { formatDate } from '../format';
import type { Parsed } from '../useBufferedText';
import { TextInput } from './TextInput';

const parseDate = (raw: string): Parsed => {
  const text = formatDate(raw);
  return { text, value: text === '' ? undefined : text };
};

/**
 * The spec's date (`ui:widget: usDate`, with the schema's `x-date` rule): typed as MM/DD/YYYY,
 * slashes added as the digits arrive, a year-first date converted; the answer is the text. A
 * `format: date` answer keeps rjsf's meaning (DateWidget, YYYY-MM-DD).
 */
export function UsDateWidget(props: WidgetProps) {
  return <TextInput {...props} parse={parseDate} maxLength={10} inputMode="numeric" />;
}
