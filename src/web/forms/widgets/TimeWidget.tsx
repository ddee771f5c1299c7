import type { WidgetProps } from '@rjsf/utils';
import { plainText, type Parsed } from '../useBufferedText';
import { TextInput } from './TextInput';

/** The time input's 'HH:MM' as the `format: time` answer 'HH:MM:SS' (seconds the input shows kept). */
const parseTime = (raw: string): Parsed =>
  /^\d{2}:\d{2}$/.test(raw) ? { text: raw, value: `${raw}:00` } : plainText(raw);
/** An answer of whole minutes is shown without its seconds, as the input draws minutes. */
const timeText = (value: unknown): string =>
  typeof value === 'string' ? value.replace(/^(\d{2}:\d{2}):00$/, '$1') : '';

/** A `format: time` answer as rjsf means it: the browser's time input, the answer `HH:MM:SS`. */
export function TimeWidget(props: WidgetProps) {
  return <TextInput {...props} type="time" parse={parseTime} toText={timeText} />;
}
