import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PageTitle } from '../../app/PageTitle';

/** The centred card every access page sits in: page title, h1 heading, content. */
export function AuthCard({
  title,
  heading = title,
  children,
}: {
  title: string;
  heading?: string;
  children: ReactNode;
}) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', px: 2, py: 6 }}>
      <PageTitle title={title} />
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: 4 }}>
        <Typography variant="h1" sx={{ mb: 1 }}>
          {heading}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}
