import type { BaseInputTemplateProps } from '@rjsf/utils';
import { TextInput } from '../widgets/TextInput';

/**
 * rjsf's text, email, number and textarea widgets render this template: our TextInput, so their
 * keystrokes stay local too and their errors are tied to the input.
 */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { type, multiline, rows } = props as BaseInputTemplateProps & {
    multiline?: boolean;
    rows?: number;
  };
  return (
    <TextInput
      {...props}
      type={type}
      multiline={multiline}
      rows={rows}
      inputMode={type === 'number' ? 'numeric' : type === 'email' ? 'email' : undefined}
    />
  );
}
