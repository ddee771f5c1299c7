/** What the three keystroke pages share: the theme, the page frame and the example answers. */
import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import { ThemeProvider } from '@mui/material/styles';
import { theme } from '../../src/web/app/theme';
import individualForm from 'virtual:forms/individual';
import { deref, fieldsInOrder } from '../../src/shared/forms/walk/schemaWalk';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';

export const form = individualForm;

/** Pointers of the file answers ('/photoId'); their bytes are attached by the driver. */
export const FILE_POINTERS = fieldsInOrder(form.schema, form.uiSchema)
  .filter((field) => deref(field.schema, form.schema)['x-file'])
  .map((field) => field.pointer);

/** The example answers; file answers left out when the page takes files another way. */
export function exampleAnswers({ withFiles }: { withFiles: boolean }): Answers {
  const answers = structuredClone(form.example) as Answers;
  if (!withFiles) for (const pointer of FILE_POINTERS) delete answers[pointer.slice(1)];
  return answers;
}

export function Frame({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Container sx={{ maxWidth: 800, py: 5 }} disableGutters>
        <Paper variant="outlined" sx={{ p: 5 }}>
          {children}
        </Paper>
      </Container>
    </ThemeProvider>
  );
}
