import type { WidgetProps } from '@rjsf/utils';
import { TextInput } from './TextInput';

/**
 * A `format: date` answer as rjsf means it: the browser's date input, the answer `YYYY-MM-DD`
 * (the spec's MM/DD/YYYY text date is UsDateWidget, named by the uiSchema).
 */
export function DateWidget(props: WidgetProps) {
  return <TextInput {...props} type="date" />;
}
