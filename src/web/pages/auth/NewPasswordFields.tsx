import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  confirmPasswordError,
  loadCommonPasswords,
  newPasswordError,
  PASSWORD_RULE,
  passwordStrength,
  type PasswordContext,
  type PasswordStrength,
} from '../../../shared/rules/password';

const METER: Record<PasswordStrength, { value: number; color: 'error' | 'warning' | 'success' }> = {
  weak: { value: 33, color: 'error' },
  medium: { value: 66, color: 'warning' },
  strong: { value: 100, color: 'success' },
};

/** The strength meter of access §5: weak, medium or strong. */
function PasswordStrengthMeter({
  password,
  commonPasswords,
  context,
}: {
  password: string;
  commonPasswords?: ReadonlySet<string>;
  context: PasswordContext;
}) {
  const strength = passwordStrength(password, commonPasswords, context);
  const { value, color } = METER[strength];
  return (
    <Box sx={{ mt: 0.5 }}>
      <LinearProgress
        variant="determinate"
        value={value}
        color={color}
        aria-label="Password strength"
        aria-valuetext={strength}
        sx={{ height: 6, borderRadius: 3 }}
      />
      <Typography variant="caption" color="text.secondary" aria-live="polite">
        Password strength: {strength}
      </Typography>
    </Box>
  );
}

/**
 * The common-password list, once its chunk has loaded (undefined until then, and if it cannot
 * load: the server checks it anyway).
 */
function useCommonPasswords(): ReadonlySet<string> | undefined {
  const [list, setList] = useState<ReadonlySet<string>>();
  useEffect(() => {
    let live = true;
    loadCommonPasswords().then(
      (loaded) => live && setList(loaded),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return list;
}

/**
 * State of a new password and its confirmation, with the messages of access §5. `context` names
 * the account as far as the page knows it (its email, names), so the hint and the meter refuse
 * a password made of those words as the server does (ASVS 6.2.11).
 */
export function usePasswordPair(context: PasswordContext = {}) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const commonPasswords = useCommonPasswords();
  const errors = {
    password: newPasswordError(password, commonPasswords, context),
    confirm: confirmPasswordError(password, confirm),
  };
  return {
    password,
    confirm,
    setPassword,
    setConfirm,
    commonPasswords,
    context,
    errors,
    valid: !errors.password && !errors.confirm,
  };
}

type PasswordPair = ReturnType<typeof usePasswordPair>;

/** New password + confirmation, strength meter and a show-password toggle. */
export function NewPasswordFields({
  pair,
  showErrors,
  labels = { password: 'Password', confirm: 'Confirm Password' },
}: {
  pair: PasswordPair;
  showErrors: boolean;
  /** The fields' labels where "Password" alone is ambiguous (beside a current password). */
  labels?: { password: string; confirm: string };
}) {
  const [visible, setVisible] = useState(false);
  const [touched, setTouched] = useState({ password: false, confirm: false });
  const show = (field: 'password' | 'confirm') => showErrors || touched[field];
  const type = visible ? 'text' : 'password';
  return (
    <>
      <TextField
        label={labels.password}
        type={type}
        name="password"
        autoComplete="new-password"
        value={pair.password}
        onChange={(event) => pair.setPassword(event.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, password: true }))}
        error={show('password') && pair.errors.password !== null}
        helperText={
          // The rule in words, from the start, and under the refusal (which the spec words).
          <>
            {show('password') && pair.errors.password ? (
              <>
                <span>{pair.errors.password}</span>{' '}
              </>
            ) : null}
            <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
              {PASSWORD_RULE}
            </Box>
          </>
        }
        required
      />
      {pair.password && (
        <PasswordStrengthMeter
          password={pair.password}
          commonPasswords={pair.commonPasswords}
          context={pair.context}
        />
      )}
      <TextField
        label={labels.confirm}
        type={type}
        name="confirmPassword"
        autoComplete="new-password"
        value={pair.confirm}
        onChange={(event) => pair.setConfirm(event.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, confirm: true }))}
        error={show('confirm') && pair.errors.confirm !== null}
        helperText={show('confirm') ? pair.errors.confirm : undefined}
        required
      />
      <FormControlLabel
        control={
          <Switch checked={visible} onChange={(event) => setVisible(event.target.checked)} />
        }
        label="Show password"
      />
    </>
  );
}
