import { visuallyHidden } from '../../../app/theme';
import { Fragment, useId, useState } from 'react';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import type { Trade } from '../../../../shared/api/statement';
import { CopyValue } from './CopyValue';
import { formatMoney, formatPrice, formatQuantity, formatUtcTime } from './statementFormat';
import { HeadCell, NumCell, StatementSection, StatementTable } from './StatementParts';

const COLUMNS = 7;

/** Trade Confirmations: each row expands to its Fill ID and Execution ID with Copy buttons. */
export function TradeConfirmationsSection({ trades }: { trades: Trade[] }) {
  return (
    <StatementSection title="Trade Confirmations">
      {trades.length === 0 ? (
        <Typography>No trades.</Typography>
      ) : (
        <StatementTable label="Trade Confirmations">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Box component="span" sx={visuallyHidden}>
                  Details
                </Box>
              </TableCell>
              <HeadCell>Time (UTC)</HeadCell>
              <HeadCell>Symbol</HeadCell>
              <HeadCell>Side</HeadCell>
              <HeadCell numeric>Quantity</HeadCell>
              <HeadCell numeric>Price</HeadCell>
              <HeadCell numeric>Notional value (USD)</HeadCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {trades.map((trade) => (
              <TradeRow key={trade.fillId} trade={trade} />
            ))}
          </TableBody>
        </StatementTable>
      )}
    </StatementSection>
  );
}

function TradeRow({ trade }: { trade: Trade }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const time = formatUtcTime(trade.time);
  return (
    <Fragment>
      <TableRow sx={{ '& > td, & > th': open ? { borderBottom: 'none' } : {} }}>
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            aria-label={`${open ? 'Hide' : 'Show'} IDs of the ${trade.symbol} trade at ${time} UTC`}
            onClick={() => setOpen((was) => !was)}
          >
            {open ? <KeyboardArrowDownIcon /> : <KeyboardArrowRightIcon />}
          </IconButton>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
          {time}
        </TableCell>
        <TableCell>{trade.symbol}</TableCell>
        <TableCell>{trade.side}</TableCell>
        <NumCell>{formatQuantity(trade.quantity)}</NumCell>
        <NumCell>{formatPrice(trade.price)}</NumCell>
        <NumCell>{formatMoney(trade.notionalValue)}</NumCell>
      </TableRow>
      {open && (
        <TableRow>
          <TableCell colSpan={COLUMNS} sx={{ py: 0, bgcolor: 'action.hover' }}>
            <Collapse in appear timeout={150}>
              <Box id={detailsId} sx={{ py: 1, pl: 6 }}>
                <CopyValue label="Fill ID" value={trade.fillId} />
                <CopyValue label="Execution ID" value={trade.executionId} />
              </Box>
            </Collapse>
          </TableCell>
        </TableRow>
      )}
    </Fragment>
  );
}
