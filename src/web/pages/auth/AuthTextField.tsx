import { useId, type ChangeEvent, type InputHTMLAttributes, type Ref } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';

interface AuthTextFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur?: () => void;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  error?: boolean;
  helperText?: string | null;
  disabled?: boolean;
  /** Attributes of the <input> itself (maxLength, inputMode, autoCapitalize, readOnly, …). */
  inputProps?: InputHTMLAttributes<HTMLInputElement> & Record<`data-${string}`, string>;
  /** The <input> itself (the sign-in focuses the field to answer next). */
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * An outlined text field for the sign-in and sign-up pages, looking and labelled exactly like
 * MUI's TextField. It is composed from the outlined input alone because TextField imports every
 * variant and the Select with its menus, which would put ~40 kB on the sign-in route.
 */
export function AuthTextField(props: AuthTextFieldProps) {
  const { label, name, value, onChange, type = 'text', autoComplete, required, error } = props;
  const id = useId();
  const helperId = props.helperText ? `${id}-helper` : undefined;
  return (
    <FormControl fullWidth margin="normal" variant="outlined" required={required} error={error}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        label={label}
        value={value}
        onChange={onChange}
        onBlur={props.onBlur}
        autoComplete={autoComplete}
        disabled={props.disabled}
        inputRef={props.inputRef}
        inputProps={{ ...props.inputProps, 'aria-describedby': helperId }}
      />
      {props.helperText ? <FormHelperText id={helperId}>{props.helperText}</FormHelperText> : null}
    </FormControl>
  );
}
