import { memo, useId } from 'react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { StatementResponse } from '../../../../shared/api/statement';
import { AccountSummarySection } from './AccountSummarySection';
import { CollateralSection } from './CollateralSection';
import { CollateralTransactionsSection } from './CollateralTransactionsSection';
import { FeesSection } from './FeesSection';
import { FundingPaymentsSection } from './FundingPaymentsSection';
import { OpenPositionsSection } from './OpenPositionsSection';
import { formatBusinessDay } from './statementFormat';
import { TradeConfirmationsSection } from './TradeConfirmationsSection';

/**
 * The customer statement: every section of business §2.5 with the fields of §3.5. Memoised: a
 * few hundred cells that change only when a new statement arrives, not when home re-renders.
 */
export const StatementView = memo(function StatementView({
  statement,
}: {
  statement: StatementResponse;
}) {
  const kindId = useId();
  const nameId = useId();
  return (
    <Paper
      component="article"
      aria-labelledby={`${kindId} ${nameId}`}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography variant="overline" color="text.secondary" component="p" id={kindId}>
        Customer statement
      </Typography>
      <Typography variant="h2" id={nameId}>
        {statement.organizationName}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        As of {formatBusinessDay(statement.asOf)} · amounts in USD unless stated
      </Typography>
      <AccountSummarySection accounts={statement.accountSummaries} />
      <OpenPositionsSection positions={statement.openPositions} />
      <TradeConfirmationsSection trades={statement.trades} />
      <CollateralSection statement={statement} />
      <CollateralTransactionsSection transactions={statement.cashTransactions} />
      <FeesSection accounts={statement.accountSummaries} />
      <FundingPaymentsSection payments={statement.perpsFundingPayments} />
    </Paper>
  );
});
