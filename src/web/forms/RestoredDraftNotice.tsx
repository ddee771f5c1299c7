import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { promptsDraftsCannotKeep } from '../../shared/forms/answers';
import type { FormSession } from './session';

/**
 * When a session opened on a restored draft: says so, and which answers a draft never keeps
 * (files, signatures, SSNs, dates of birth) must be given again.
 */
export function RestoredDraftNotice({ session }: { session: FormSession }) {
  const [prompts] = useState(() =>
    session.restored && session.form
      ? promptsDraftsCannotKeep(session.form, session.answers())
      : [],
  );
  const [open, setOpen] = useState(session.restored);
  if (!open) return null;
  return (
    <Alert severity="info" sx={{ mb: 2 }} onClose={() => setOpen(false)}>
      <AlertTitle>Your saved answers were restored</AlertTitle>
      {prompts.length > 0 ? (
        <>
          For your security, these are never saved on this device and must be given again:
          <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {prompts.map((prompt) => (
              <li key={prompt}>{prompt}</li>
            ))}
          </ul>
        </>
      ) : (
        'Check them before you continue.'
      )}
    </Alert>
  );
}
