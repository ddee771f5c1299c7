import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import TableBody from '@mui/material/TableBody';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { addDecimals, type AccountSummary, type Decimal } from '../../../../shared/api/statement';
import { formatMoney, humanize } from './statementFormat';
import {
  HeadCell,
  NumCell,
  RowHeadCell,
  StatementSection,
  StatementTable,
  totalRowSx,
} from './StatementParts';

/** The usual fee types first, any others after them alphabetically. */
const FEE_ORDER = ['Exchange', 'Clearing', 'NFA'];

export function feeTypesInOrder(types: Iterable<string>): string[] {
  const rank = (type: string) => {
    const index = FEE_ORDER.indexOf(type);
    return index === -1 ? FEE_ORDER.length : index;
  };
  return [...new Set(types)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Account summary: one card per account (business §2.5, fields of §3.5). */
export function AccountSummarySection({ accounts }: { accounts: AccountSummary[] }) {
  return (
    <StatementSection title="Account Summary">
      {accounts.length === 0 ? (
        <Typography>No accounts.</Typography>
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}>
          {accounts.map((account) => (
            <AccountCard key={account.externalAccountId} account={account} />
          ))}
        </Box>
      )}
    </StatementSection>
  );
}

function AccountCard({ account }: { account: AccountSummary }) {
  const id = account.externalAccountId;
  const origins = Object.keys(account.cash).sort();
  const feeTypes = feeTypesInOrder(Object.keys(account.fees));
  const rows: [string, Decimal, boolean?][] = [
    ['Purchases and sales', account.purchasesAndSales],
    ['Long option value', account.longOptionValue],
    ['Short option value', account.shortOptionValue],
    ['Open trade equity', account.openTradeEquity],
    ['Net liquidating value', account.netLiquidatingValue, true],
    ['Initial margin', account.initialMargin],
    ['Maintenance margin', account.maintenanceMargin],
    ['Margin excess', account.marginExcess, true],
  ];
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }}>
      <Typography variant="h6" component="h4">
        Account {id}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        External account ID {id} · Clearing account ID {account.clearingAccountId}
      </Typography>
      <StatementTable label={`Cash by origin, account ${id}`}>
        <TableHead>
          <TableRow>
            <HeadCell>Origin</HeadCell>
            <HeadCell numeric>Beginning balance</HeadCell>
            <HeadCell numeric>Deposits and withdrawals</HeadCell>
            <HeadCell numeric>Ending balance (USD)</HeadCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {origins.map((key) => {
            const cash = account.cash[key]!;
            return (
              <TableRow key={key}>
                <RowHeadCell>{humanize(cash.origin)}</RowHeadCell>
                <NumCell>{formatMoney(cash.beginningBalance)}</NumCell>
                <NumCell>{formatMoney(cash.depositsAndWithdrawals)}</NumCell>
                <NumCell>{formatMoney(cash.endingBalance)}</NumCell>
              </TableRow>
            );
          })}
        </TableBody>
      </StatementTable>
      <Box
        sx={{
          display: 'grid',
          gap: 2.5,
          mt: 2.5,
          // minmax(0, …): a table wider than its column scrolls in it, never widens the card.
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
          alignItems: 'start',
        }}
      >
        <StatementTable label={`Equity and margin, account ${id}`}>
          <TableHead>
            <TableRow>
              <HeadCell>Equity and margin</HeadCell>
              <HeadCell numeric>Amount (USD)</HeadCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map(([label, value, strong]) => (
              <TableRow key={label}>
                <RowHeadCell sx={strong ? { fontWeight: 600 } : undefined}>{label}</RowHeadCell>
                <NumCell sx={strong ? { fontWeight: 600 } : undefined}>
                  {formatMoney(value)}
                </NumCell>
              </TableRow>
            ))}
          </TableBody>
        </StatementTable>
        <StatementTable label={`Fees, account ${id}`}>
          <TableHead>
            <TableRow>
              <HeadCell>Fee type</HeadCell>
              <HeadCell numeric>Amount (USD)</HeadCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {feeTypes.map((type) => (
              <TableRow key={type}>
                <RowHeadCell>{type}</RowHeadCell>
                <NumCell>{formatMoney(account.fees[type]!)}</NumCell>
              </TableRow>
            ))}
            <TableRow sx={totalRowSx}>
              <RowHeadCell>Total fees</RowHeadCell>
              <NumCell>{formatMoney(addDecimals(Object.values(account.fees)))}</NumCell>
            </TableRow>
          </TableBody>
        </StatementTable>
      </Box>
    </Paper>
  );
}
