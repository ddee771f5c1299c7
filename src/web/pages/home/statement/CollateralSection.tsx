import TableBody from '@mui/material/TableBody';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import TableCell from '@mui/material/TableCell';
import { addDecimals, collateralRows, type Statement } from '../../../../shared/api/statement';
import { formatMoney, humanize } from './statementFormat';
import {
  HeadCell,
  NumCell,
  RowHeadCell,
  StatementSection,
  StatementTable,
  totalRowSx,
} from './StatementParts';

/** Collateral: the cash each account holds by origin (`collateralRows`), with the total held. */
export function CollateralSection({
  statement,
}: {
  statement: Pick<Statement, 'accountSummaries'>;
}) {
  const rows = collateralRows(statement);
  return (
    <StatementSection title="Collateral">
      {rows.length === 0 ? (
        <Typography>No collateral.</Typography>
      ) : (
        <StatementTable label="Collateral">
          <TableHead>
            <TableRow>
              <HeadCell>Account</HeadCell>
              <HeadCell>Clearing account</HeadCell>
              <HeadCell>Origin</HeadCell>
              <HeadCell numeric>Beginning balance</HeadCell>
              <HeadCell numeric>Deposits and withdrawals</HeadCell>
              <HeadCell numeric>Ending balance (USD)</HeadCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={`${row.externalAccountId}/${row.origin}`}>
                <RowHeadCell>{row.externalAccountId}</RowHeadCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.clearingAccountId}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{humanize(row.origin)}</TableCell>
                <NumCell>{formatMoney(row.beginningBalance)}</NumCell>
                <NumCell>{formatMoney(row.depositsAndWithdrawals)}</NumCell>
                <NumCell>{formatMoney(row.endingBalance)}</NumCell>
              </TableRow>
            ))}
            <TableRow sx={totalRowSx}>
              <RowHeadCell>Total</RowHeadCell>
              <TableCell colSpan={2} />
              <NumCell>{formatMoney(addDecimals(rows.map((row) => row.beginningBalance)))}</NumCell>
              <NumCell>
                {formatMoney(addDecimals(rows.map((row) => row.depositsAndWithdrawals)))}
              </NumCell>
              <NumCell>{formatMoney(addDecimals(rows.map((row) => row.endingBalance)))}</NumCell>
            </TableRow>
          </TableBody>
        </StatementTable>
      )}
    </StatementSection>
  );
}
