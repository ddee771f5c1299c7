import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { CollateralTransaction } from '../../../../shared/api/statement';
import { formatMoney2, formatUtcTime, humanize } from './statementFormat';
import { HeadCell, NumCell, StatementSection, StatementTable } from './StatementParts';

/** Collateral Transactions: amounts with exactly 2 decimals (specification §9). */
export function CollateralTransactionsSection({
  transactions,
}: {
  transactions: CollateralTransaction[];
}) {
  return (
    <StatementSection title="Collateral Transactions">
      {transactions.length === 0 ? (
        <Typography>No collateral transactions.</Typography>
      ) : (
        <StatementTable label="Collateral Transactions">
          <TableHead>
            <TableRow>
              <HeadCell>Time (UTC)</HeadCell>
              <HeadCell>Type</HeadCell>
              <HeadCell>Origin</HeadCell>
              <HeadCell>Currency</HeadCell>
              <HeadCell numeric>Amount</HeadCell>
              <HeadCell>Transaction ID</HeadCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {transactions.map((transaction) => (
              <TableRow key={transaction.transactionId}>
                <TableCell sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                  {formatUtcTime(transaction.transactionTime)}
                </TableCell>
                <TableCell>{humanize(transaction.transactionType)}</TableCell>
                <TableCell>{humanize(transaction.transactionOrigin)}</TableCell>
                <TableCell>{transaction.currency}</TableCell>
                <NumCell>{formatMoney2(transaction.amount)}</NumCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{transaction.transactionId}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </StatementTable>
      )}
    </StatementSection>
  );
}
