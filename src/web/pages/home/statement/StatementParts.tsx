import { useId, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableCell, { type TableCellProps } from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import Typography from '@mui/material/Typography';
import { useSideScroll } from '../../../app/useSideScroll';

/** One statement section: a region named by its heading. */
export function StatementSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 4 }}>
      <Typography variant="h5" component="h3" id={headingId} sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/**
 * A small outlined table named for assistive technology by `label`. Wider than the screen (a
 * phone), it scrolls sideways inside its frame, which the keyboard can then reach.
 */
export function StatementTable({ label, children }: { label: string; children: ReactNode }) {
  const { ref, regionProps } = useSideScroll<HTMLDivElement>(label);
  return (
    <TableContainer component={Paper} variant="outlined" ref={ref} {...regionProps}>
      <Table size="small" aria-label={label}>
        {children}
      </Table>
    </TableContainer>
  );
}

const numericSx = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

/** A right-aligned cell with tabular figures, so digits line up down a column. */
export function NumCell({ children, sx, ...props }: TableCellProps) {
  return (
    <TableCell align="right" sx={[numericSx, ...(Array.isArray(sx) ? sx : [sx])]} {...props}>
      {children}
    </TableCell>
  );
}

/** A column header cell (MUI gives head cells `scope="col"`); long headers wrap. */
export function HeadCell({ numeric, children }: { numeric?: boolean; children: ReactNode }) {
  return (
    <TableCell align={numeric ? 'right' : 'left'} sx={{ fontWeight: 600, verticalAlign: 'bottom' }}>
      {children}
    </TableCell>
  );
}

/** A row header cell (identifiers and labels, kept on one line). */
export function RowHeadCell({ children, sx }: Pick<TableCellProps, 'children' | 'sx'>) {
  return (
    <TableCell
      component="th"
      scope="row"
      sx={[{ whiteSpace: 'nowrap' }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      {children}
    </TableCell>
  );
}

/** Styles of a totals row. */
export const totalRowSx = {
  '& td, & th': { fontWeight: 600, borderTop: 2, borderTopColor: 'divider' },
} as const;
