import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

/**
 * A secret the server answers only once (an API credential's, a webhook endpoint's signing
 * secret): said so, shown read-only to copy, kept on the page until the user says they have it.
 */
export function SecretShownOnce({
  children,
  secret,
  onKept,
}: {
  /** What was made, and how the secret is used. */
  children: ReactNode;
  secret: string;
  onKept: () => void;
}) {
  return (
    <Alert severity="success" sx={{ mb: 2, maxWidth: 900 }} role="status">
      <Typography>{children}</Typography>
      <TextField
        label="Secret"
        value={secret}
        fullWidth
        size="small"
        sx={{ my: 1 }}
        slotProps={{ htmlInput: { readOnly: true, spellCheck: false } }}
      />
      <Button onClick={() => void navigator.clipboard?.writeText(secret)} sx={{ mr: 1 }}>
        Copy
      </Button>
      <Button variant="contained" onClick={onKept}>
        I have kept it
      </Button>
    </Alert>
  );
}
