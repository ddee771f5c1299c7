import { createTheme } from '@mui/material/styles';

/** Dark navy of the dark header variant and the brand. */
export const NAVY = '#0b1f3a';

export const theme = createTheme({
  palette: {
    primary: { main: '#153e75', dark: NAVY, contrastText: '#ffffff' },
    secondary: { main: '#0f766e' },
    background: { default: '#f4f6f9', paper: '#ffffff' },
    text: { primary: '#1a2433', secondary: '#4a5565' },
  },
  shape: { borderRadius: 6 },
  typography: {
    fontFamily:
      '"Segoe UI", system-ui, -apple-system, "Helvetica Neue", Arial, "Liberation Sans", sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 600 },
    h2: { fontSize: '1.35rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
    // Links inside text stay underlined (WCAG 1.4.1); navigation links opt into 'hover'.
    MuiLink: { defaultProps: { underline: 'always' } },
  },
});
