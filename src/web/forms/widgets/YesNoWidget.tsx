import type { WidgetProps } from '@rjsf/utils';
import { RadioWidget } from './RadioWidget';

/** rjsf's own words for a boolean without `ui:enumNames` or `oneOf` titles. */
const YES_NO = [
  { label: 'Yes', value: true },
  { label: 'No', value: false },
];

/**
 * A yes/no question as two radios; the answer is a boolean. The radio widget draws it (a named
 * group tied to its errors); the option labels are rjsf's (`ui:enumNames` or `oneOf` titles in
 * the schema, else Yes/No).
 */
export function YesNoWidget(props: WidgetProps) {
  const enumOptions = props.options.enumOptions ?? YES_NO;
  return <RadioWidget {...props} options={{ ...props.options, enumOptions }} />;
}
