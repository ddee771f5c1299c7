import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';

/** How long the copy confirmation stays (specification §9). */
const COPY_CONFIRMATION_MS = 500;
const COPIED_MESSAGE = 'Copied to Clipboard';
const COPY_FAILED_MESSAGE = 'Could not copy: select the ID and copy it by hand.';
const COPY_FAILED_MS = 4_000;

/**
 * A labelled identifier with a Copy button that writes it to the clipboard and confirms
 * 'Copied to Clipboard' for 500 ms. The confirmation lives in an always-present live region so
 * screen readers announce it.
 */
export function CopyValue({ label, value }: { label: string; value: string }) {
  const [message, setMessage] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = (text: string, ms: number) => {
    clearTimeout(timer.current);
    setMessage(text);
    timer.current = setTimeout(() => setMessage(''), ms);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      show(COPIED_MESSAGE, COPY_CONFIRMATION_MS);
    } catch {
      show(COPY_FAILED_MESSAGE, COPY_FAILED_MS);
    }
  };

  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, minHeight: 36 }}>
      <Typography component="span" variant="body2" color="text.secondary" sx={{ minWidth: 96 }}>
        {label}
      </Typography>
      <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace' }}>
        {value}
      </Typography>
      <Button
        size="small"
        variant="outlined"
        startIcon={<ContentCopyIcon fontSize="small" />}
        aria-label={`Copy ${label}`}
        onClick={() => void copy()}
      >
        Copy
      </Button>
      <Typography
        component="span"
        variant="body2"
        role="status"
        color={message === COPIED_MESSAGE ? 'success.main' : 'error.main'}
      >
        {message}
      </Typography>
    </Box>
  );
}
