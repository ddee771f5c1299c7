import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TableBody from '@mui/material/TableBody';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { OpenPosition } from '../../../../shared/api/statement';
import { formatMoney, formatPrice, formatQuantity } from './statementFormat';
import { HeadCell, NumCell, RowHeadCell, StatementSection, StatementTable } from './StatementParts';

/** Open Positions: the net position as a Long/Short tag with its quantity (§3.5). */
export function OpenPositionsSection({ positions }: { positions: OpenPosition[] }) {
  return (
    <StatementSection title="Open Positions">
      {positions.length === 0 ? (
        <Typography>No open positions.</Typography>
      ) : (
        <StatementTable label="Open Positions">
          <TableHead>
            <TableRow>
              <HeadCell>Symbol</HeadCell>
              <HeadCell numeric>Settlement price</HeadCell>
              <HeadCell numeric>Net position</HeadCell>
              <HeadCell numeric>VWAP</HeadCell>
              <HeadCell numeric>Open trade equity (USD)</HeadCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {positions.map((position) => {
              const { tag, contents } = position.netPosition;
              return (
                <TableRow key={position.symbol}>
                  <RowHeadCell>{position.symbol}</RowHeadCell>
                  <NumCell>{formatPrice(position.marketPrice)}</NumCell>
                  <NumCell>
                    <Chip
                      size="small"
                      variant="outlined"
                      color={tag === 'Long' ? 'success' : 'error'}
                      label={tag}
                      sx={{ mr: 1, minWidth: 56, fontWeight: 600 }}
                    />
                    <Box
                      component="span"
                      sx={{ display: 'inline-block', minWidth: '3.5em', verticalAlign: 'middle' }}
                    >
                      {formatQuantity(contents)}
                    </Box>
                  </NumCell>
                  <NumCell>{formatPrice(position.vwaPrice)}</NumCell>
                  <NumCell>{formatMoney(position.openTradeEquity)}</NumCell>
                </TableRow>
              );
            })}
          </TableBody>
        </StatementTable>
      )}
    </StatementSection>
  );
}
