import Box from '@mui/material/Box';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { addDecimals, type FundingPayment } from '../../../../shared/api/statement';
import { formatMoney, formatUtcTime } from './statementFormat';
import {
  HeadCell,
  NumCell,
  RowHeadCell,
  StatementSection,
  StatementTable,
  totalRowSx,
} from './StatementParts';

const NO_FUNDING_PAYMENTS = 'No funding payments.';

/** Funding Payments per perpetual product, or 'No funding payments.' (business §2.5). */
export function FundingPaymentsSection({
  payments,
}: {
  payments: Record<string, FundingPayment[]>;
}) {
  const products = Object.keys(payments)
    .filter((product) => (payments[product]?.length ?? 0) > 0)
    .sort();
  return (
    <StatementSection title="Funding Payments">
      {products.length === 0 ? (
        <Typography>{NO_FUNDING_PAYMENTS}</Typography>
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}>
          {products.map((product) => (
            <ProductPayments key={product} product={product} payments={payments[product]!} />
          ))}
        </Box>
      )}
    </StatementSection>
  );
}

function ProductPayments({ product, payments }: { product: string; payments: FundingPayment[] }) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600, mb: 1 }}>
        {product}
      </Typography>
      <StatementTable label={`Funding payments, ${product}`}>
        <TableHead>
          <TableRow>
            <HeadCell>Account</HeadCell>
            <HeadCell>Interval open (UTC)</HeadCell>
            <HeadCell>Interval close (UTC)</HeadCell>
            <HeadCell numeric>Amount (USD)</HeadCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {payments.map((payment) => (
            <TableRow key={`${payment.externalAccountId}/${payment.intervalOpenTime}`}>
              <RowHeadCell>{payment.externalAccountId}</RowHeadCell>
              <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatUtcTime(payment.intervalOpenTime)}
              </TableCell>
              <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatUtcTime(payment.intervalCloseTime)}
              </TableCell>
              <NumCell>{formatMoney(payment.amount)}</NumCell>
            </TableRow>
          ))}
          <TableRow sx={totalRowSx}>
            <RowHeadCell>Total</RowHeadCell>
            <TableCell colSpan={2} />
            <NumCell>{formatMoney(addDecimals(payments.map((payment) => payment.amount)))}</NumCell>
          </TableRow>
        </TableBody>
      </StatementTable>
    </Box>
  );
}
