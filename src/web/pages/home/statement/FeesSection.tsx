import { visuallyHidden } from '../../../app/theme';
import TableBody from '@mui/material/TableBody';
import Box from '@mui/material/Box';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { addDecimals, type AccountSummary } from '../../../../shared/api/statement';
import { feeTypesInOrder } from './AccountSummarySection';
import { formatMoney } from './statementFormat';
import {
  HeadCell,
  NumCell,
  RowHeadCell,
  StatementSection,
  StatementTable,
  totalRowSx,
} from './StatementParts';

/**
 * Fees: every account's fees by type side by side, with totals per account and per type. A fee
 * type an account was not charged shows as a dash.
 */
export function FeesSection({ accounts }: { accounts: AccountSummary[] }) {
  const types = feeTypesInOrder(accounts.flatMap((account) => Object.keys(account.fees)));
  if (types.length === 0) {
    return (
      <StatementSection title="Fees">
        <Typography>No fees.</Typography>
      </StatementSection>
    );
  }
  const ofType = (type: string) =>
    accounts.flatMap((account) => {
      const fee = account.fees[type];
      return fee === undefined ? [] : [fee];
    });
  return (
    <StatementSection title="Fees">
      <StatementTable label="Fees">
        <TableHead>
          <TableRow>
            <HeadCell>Account</HeadCell>
            {types.map((type) => (
              <HeadCell key={type} numeric>
                {type}
              </HeadCell>
            ))}
            <HeadCell numeric>Total (USD)</HeadCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {accounts.map((account) => (
            <TableRow key={account.externalAccountId}>
              <RowHeadCell>{account.externalAccountId}</RowHeadCell>
              {types.map((type) => {
                const fee = account.fees[type];
                return (
                  <NumCell key={type}>
                    {fee === undefined ? <NotCharged /> : formatMoney(fee)}
                  </NumCell>
                );
              })}
              <NumCell>{formatMoney(addDecimals(Object.values(account.fees)))}</NumCell>
            </TableRow>
          ))}
          <TableRow sx={totalRowSx}>
            <RowHeadCell>Total</RowHeadCell>
            {types.map((type) => (
              <NumCell key={type}>{formatMoney(addDecimals(ofType(type)))}</NumCell>
            ))}
            <NumCell>
              {formatMoney(addDecimals(accounts.flatMap((account) => Object.values(account.fees))))}
            </NumCell>
          </TableRow>
        </TableBody>
      </StatementTable>
    </StatementSection>
  );
}

function NotCharged() {
  return (
    <>
      <span aria-hidden="true">—</span>
      <Box component="span" sx={visuallyHidden}>
        not charged
      </Box>
    </>
  );
}
