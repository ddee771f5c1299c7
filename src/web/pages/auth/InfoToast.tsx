import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

/** How long a handed-over message stays up (access §9). */
const TOAST_HIDE_MS = 6000;

/** An info toast that hides itself after 6 seconds (or when dismissed). */
export function InfoToast({ message }: { message: string }) {
  const [open, setOpen] = useState(true);
  return (
    <Snackbar
      open={open}
      autoHideDuration={TOAST_HIDE_MS}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') setOpen(false);
      }}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      sx={{ mt: 10 }}
    >
      <Alert severity="info" onClose={() => setOpen(false)} sx={{ width: '100%', boxShadow: 3 }}>
        {message}
      </Alert>
    </Snackbar>
  );
}
