import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { firm } from '../../../shared/config/firm';

/** Fewer than this many left: the section says to get a new set. */
const FEW_LEFT = 3;

/**
 * The recovery codes' line of the two-factor section (issue 38 §4): how many of the ten are left,
 * and a new set on request (the caller asks for the password and a second factor first).
 */
export function RecoveryCodes(props: { left: number; onRenew: () => void }) {
  const { left } = props;
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="h3" sx={{ fontSize: '1.1rem', fontWeight: 600, mb: 1 }}>
        Recovery codes
      </Typography>
      <Typography sx={{ mb: 1 }} data-testid="recovery-codes-left">
        {left === 0 ? 'You have no recovery codes left.' : `${left} of 10 recovery codes left.`}{' '}
        Each signs you in once if you cannot use your authenticator app or passkey.
      </Typography>
      {left <= FEW_LEFT ? (
        <Alert severity="warning" sx={{ mb: 1, maxWidth: 560 }}>
          {left === 0
            ? 'Get a new set now, so that losing your phone or passkey does not lock you out.'
            : 'Only a few are left: get a new set soon.'}
        </Alert>
      ) : null}
      <Button variant="outlined" onClick={props.onRenew}>
        Get new recovery codes
      </Button>
    </Box>
  );
}

/**
 * Recovery codes just made, shown this once (the server keeps only their hashes): to copy, to
 * download as a text file, or to write down; "I have saved them" puts them away.
 */
export function RecoveryCodesShown(props: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const text = `${firm.displayName} recovery codes\n\n${props.codes.join('\n')}\n\nEach code works once.\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <Alert
      severity="info"
      icon={false}
      sx={{ mb: 3, maxWidth: 560 }}
      role="region"
      aria-labelledby="recovery-codes-title"
    >
      <AlertTitle id="recovery-codes-title">Save your recovery codes</AlertTitle>
      <Typography sx={{ mb: 1 }}>
        If you cannot use your authenticator app or passkey, each of these codes signs you in once,
        in place of the code. Keep them somewhere safe, apart from your phone: print them or store
        them in a password manager. They are shown only now; any codes you had before no longer
        work.
      </Typography>
      <Box
        component="ol"
        aria-label="Recovery codes"
        sx={{
          fontFamily: 'monospace',
          fontSize: '1.1rem',
          display: 'grid',
          gridTemplateColumns: 'repeat(2, max-content)',
          columnGap: 4,
          rowGap: 0.5,
          pl: 3,
          my: 1,
        }}
      >
        {props.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }}>
        <Button variant="outlined" size="small" onClick={() => void copy()}>
          Copy codes
        </Button>
        <Button variant="outlined" size="small" onClick={download}>
          Download
        </Button>
        <Button variant="contained" size="small" onClick={props.onDone}>
          I have saved them
        </Button>
      </Box>
      {copied === null ? null : (
        <Typography role="status" sx={{ mt: 1 }}>
          {copied ? 'Copied.' : 'The codes could not be copied: select them or download them.'}
        </Typography>
      )}
    </Alert>
  );
}
