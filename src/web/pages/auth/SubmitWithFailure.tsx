import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { errorMessageOf } from '../../api/client';
import { SupportHint } from './SupportHint';

/**
 * The foot of a link-page form (verify email, reset password, accept invitation): the server's
 * failure with the support hint, then the submit button, disabled while the call runs.
 */
export function SubmitWithFailure(props: { label: string; pending: boolean; error: unknown }) {
  return (
    <>
      {props.error ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorMessageOf(props.error)}
          <SupportHint />
        </Alert>
      ) : null}
      <Button
        type="submit"
        variant="contained"
        fullWidth
        size="large"
        sx={{ mt: 2 }}
        disabled={props.pending}
      >
        {props.label}
      </Button>
    </>
  );
}
