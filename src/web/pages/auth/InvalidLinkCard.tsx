import Alert from '@mui/material/Alert';
import { SupportContact } from '../../app/SupportContact';
import { AuthCard } from './AuthCard';

/** What an emailed-link page shows when its link lacks a parameter (access §2). */
export function InvalidLinkCard({ title, message }: { title: string; message: string }) {
  return (
    <AuthCard title={title}>
      <Alert severity="error" sx={{ mt: 2 }}>
        {message} Support: <SupportContact />.
      </Alert>
    </AuthCard>
  );
}
