import { styled } from '@mui/material/styles';

/**
 * The dialog list's table, drawn with plain `table`, `tr`, `th`, `td` and `button` elements
 * styled once here, as MUI's small Table and small text Buttons look (their styles, from the
 * theme). A list of 50 persons drew about 400 MUI components (cells, buttons and their ripple
 * and focus handling), each with its own style work, and resuming an application waited for
 * them (issue 29 §2); one class for the whole table costs the same for 1 row or 50.
 *
 * Class names inside: `action` (a row's button; `error` for a destructive one) and `actions`
 * (the cell holding them, right-aligned).
 */
export const ListTable = styled('table')(({ theme }) => {
  const cellBorder =
    theme.palette.mode === 'light'
      ? theme.lighten(theme.alpha(theme.palette.divider, 1), 0.88)
      : theme.darken(theme.alpha(theme.palette.divider, 1), 0.68);
  const { hoverOpacity, focusOpacity } = theme.palette.action;
  return {
    display: 'table',
    width: '100%',
    borderCollapse: 'collapse',
    borderSpacing: 0,
    '& th, & td': {
      ...theme.typography.body2,
      display: 'table-cell',
      verticalAlign: 'inherit',
      borderBottom: `1px solid ${cellBorder}`,
      textAlign: 'left',
      padding: '6px 16px',
      color: theme.palette.text.primary,
    },
    // A phone's screen: narrower cells, so more of the table fits before it scrolls.
    [theme.breakpoints.down('sm')]: { '& th, & td': { padding: '6px 8px' } },
    '& th': {
      lineHeight: theme.typography.pxToRem(24),
      fontWeight: theme.typography.fontWeightMedium,
    },
    '& tr': { color: 'inherit', display: 'table-row', verticalAlign: 'middle', outline: 0 },
    '& td.actions': { textAlign: 'right', whiteSpace: 'nowrap' },
    '& .action': {
      // MUI's ButtonBase reset…
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      position: 'relative',
      boxSizing: 'border-box',
      WebkitTapHighlightColor: 'transparent',
      backgroundColor: 'transparent',
      border: 0,
      margin: 0,
      cursor: 'pointer',
      userSelect: 'none',
      verticalAlign: 'middle',
      MozAppearance: 'none',
      WebkitAppearance: 'none',
      textDecoration: 'none',
      '&::-moz-focus-inner': { borderStyle: 'none' },
      // …and its small text Button (keyboard focus: the theme's ring for every control).
      ...theme.typography.button,
      fontSize: theme.typography.pxToRem(13),
      minWidth: 64,
      padding: '4px 5px',
      borderRadius: theme.shape.borderRadius,
      transition: theme.transitions.create(
        ['background-color', 'box-shadow', 'border-color', 'color'],
        {
          duration: theme.transitions.duration.short,
        },
      ),
      color: theme.palette.primary.main,
      '@media (hover: hover)': {
        '&:hover': { backgroundColor: theme.alpha(theme.palette.primary.main, hoverOpacity) },
      },
      // In place of MUI's focus ripple, inside the ring.
      '&:focus-visible': {
        backgroundColor: theme.alpha(theme.palette.primary.main, focusOpacity),
      },
    },
    '& .action.error': {
      color: theme.palette.error.main,
      '@media (hover: hover)': {
        '&:hover': { backgroundColor: theme.alpha(theme.palette.error.main, hoverOpacity) },
      },
      '&:focus-visible': { backgroundColor: theme.alpha(theme.palette.error.main, focusOpacity) },
    },
  };
});
