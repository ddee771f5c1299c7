import { createTheme } from '@mui/material/styles';

/** Dark navy of the dark header variant and the brand. */
export const NAVY = '#0b1f3a';

/** Below this viewport width the app says it is desktop only (access §9, business §9). */
export const DESKTOP_MIN_WIDTH = 991;

/**
 * The media query of the widths below the desktop breakpoint, for `sx`: there the desktop-only
 * notice shows, and what it sits above is laid out in one column that fits the screen (a phone
 * at 390 px, a tablet at 768 px) instead of the desktop's columns side by side.
 */
export const BELOW_DESKTOP = `@media (max-width: ${DESKTOP_MIN_WIDTH - 0.02}px)`;

/**
 * The keyboard focus indicator of every control (WCAG 2.2 2.4.7 focus visible, 2.4.13 focus
 * appearance): a solid 3 px ring 2 px outside the control, in a blue of more than 3:1 contrast
 * against white and the page background; on the navy header a white ring. MUI's own indicator
 * (a faint ripple tint) is not enough.
 */
const FOCUS_RING = '#1d5fd1';
const focusRing = { outline: `3px solid ${FOCUS_RING}`, outlineOffset: 2 } as const;

export const theme = createTheme({
  palette: {
    primary: { main: '#153e75', dark: NAVY, contrastText: '#ffffff' },
    secondary: { main: '#0f766e' },
    // MUI's orange (#ed6c02) under white text is 3.1:1; this amber is 5:1 (WCAG 1.4.3), for the
    // "Change requested" chip and "Make the changes".
    warning: { main: '#b45309', contrastText: '#ffffff' },
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
    MuiCssBaseline: {
      styleOverrides: {
        // Native controls and links outside MUI's components (the skip link, plain anchors).
        ':focus-visible': focusRing,
        // MUI's outlined inputs show focus by their border; the ring goes round the whole box.
        '.MuiInputBase-root.Mui-focused:has(:focus-visible)': focusRing,
        '.MuiInputBase-input:focus-visible': { outline: 'none' },
        // The ring runs 2 px outside the outline, through a floating label: the label is drawn
        // on the paper's colour above it, as the outline's own notch leaves it.
        '.MuiInputLabel-outlined.MuiInputLabel-shrink': {
          backgroundColor: '#ffffff',
          paddingInline: 4,
          marginLeft: -4,
        },
        '[data-variant="dark"] :focus-visible, [data-variant="dark"] .Mui-focusVisible': {
          outlineColor: '#ffffff',
        },
      },
    },
    MuiButtonBase: {
      styleOverrides: { root: { '&.Mui-focusVisible': focusRing } },
    },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
    // Links inside text stay underlined (WCAG 1.4.1); navigation links opt into 'hover'.
    MuiLink: { defaultProps: { underline: 'always' } },
  },
});

/** Read by screen readers, not shown. */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
