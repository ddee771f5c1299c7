import { useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { EsignConsentState } from '../../../shared/api/esignConsent';
import { ESIGN_CONSENT_SECTIONS } from '../../../shared/forms/model/esignConsent';
import { ApiError } from '../../api/client';
import { getEsignConsent, giveEsignConsent } from '../../api/esign-consent';
import { SessionRenewalDeclined } from '../../app/sessionExpiry';
import { consentText } from './consentText';

/**
 * The E-Sign Disclosure and Consent (ESIGN 7001(c)) before the first electronic signature: the
 * disclosures of schemas/common/esign-consent.json, a link to the published PDF, a tick "I
 * consent…" and a button that stores the consent; Cancel stores and signs nothing. Every word
 * is the schema file's.
 */
export function EsignConsentDialog({
  version,
  onConsented,
  onCancel,
}: {
  /** The version the server named (the consent PDF's SHA-256); asked again when unknown. */
  version: string | undefined;
  onConsented: (state: EsignConsentState) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [ticked, setTicked] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [shownVersion, setShownVersion] = useState(version);
  const text = consentText;
  const tickMissing = submitted && !ticked;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    event.stopPropagation();
    setSubmitted(true);
    if (!ticked) return;
    setPending(true);
    setFailure(null);
    try {
      const current = shownVersion ?? (await getEsignConsent()).version;
      setShownVersion(current);
      onConsented(await giveEsignConsent(current));
    } catch (error) {
      if (error instanceof SessionRenewalDeclined) {
        onCancel();
        return;
      }
      if (error instanceof ApiError && error.status === 409) {
        // The published consent changed while it was open: the next confirmation names the new one.
        setShownVersion(undefined);
        setFailure(error.message);
      } else {
        setFailure(text.failedMessage);
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onCancel}
      scroll="paper"
      maxWidth="md"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
    >
      <Box
        component="form"
        noValidate
        onSubmit={(event: FormEvent) => void onSubmit(event)}
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DialogTitle id={`${id}-title`}>{text.title}</DialogTitle>
        {/* Scrolls on its own: focusable, so keyboard users can scroll it too. */}
        <DialogContent dividers tabIndex={0} aria-labelledby={`${id}-title`} role="region">
          <Typography id={`${id}-intro`} sx={{ mb: 2 }}>
            {text.intro}
          </Typography>
          {ESIGN_CONSENT_SECTIONS.map((name) => (
            <Box key={name} component="section" sx={{ mb: 2 }}>
              <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
                {text.sections[name].heading}
              </Typography>
              <Typography>{text.sections[name].text}</Typography>
            </Box>
          ))}
          <Link href={text.document} target="_blank" rel="noopener">
            {text.documentLabel}
          </Link>
        </DialogContent>
        <Box sx={{ px: 3, pt: 2 }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={ticked}
                onChange={(event) => setTicked(event.target.checked)}
                slotProps={{
                  input: {
                    'aria-invalid': tickMissing,
                    ...(tickMissing ? { 'aria-describedby': `${id}-tick-error` } : {}),
                  },
                }}
              />
            }
            label={text.confirmLabel}
          />
          {tickMissing && (
            <FormHelperText id={`${id}-tick-error`} error>
              {text.confirmRequiredMessage}
            </FormHelperText>
          )}
          {failure && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {failure}
            </Alert>
          )}
        </Box>
        <DialogActions>
          <Button onClick={onCancel}>{text.cancelLabel}</Button>
          <Button type="submit" variant="contained" disabled={pending}>
            {text.acceptLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
