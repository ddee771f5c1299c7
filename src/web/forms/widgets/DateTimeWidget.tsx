import { localToUTC, utcToLocal, type WidgetProps } from '@rjsf/utils';
import type { Parsed } from '../useBufferedText';
import { TextInput } from './TextInput';

/** The local date and time the input shows, as the ISO date-time (UTC) the answer holds. */
const parseDateTime = (raw: string): Parsed => ({
  text: raw,
  value: raw === '' ? undefined : localToUTC(raw),
});
/** An ISO answer as the input's local 'YYYY-MM-DDTHH:MM' (seconds only when it has some). */
const dateTimeText = (value: unknown): string =>
  typeof value === 'string' && value !== ''
    ? utcToLocal(value).replace(/(:\d{2})?\.000$/, (seconds) =>
        seconds.startsWith(':00') ? '' : seconds.slice(0, 3),
      )
    : '';

/**
 * A `format: date-time` answer as rjsf means it: the browser's local date and time input, the
 * answer an ISO date-time in UTC ('2026-03-05T14:30:00.000Z').
 */
export function DateTimeWidget(props: WidgetProps) {
  return <TextInput {...props} type="datetime-local" parse={parseDateTime} toText={dateTimeText} />;
}
