import { useId } from 'react';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  MARKET_PRODUCTS,
  type BlockMessage,
  type MarketProduct,
  type PriceLevel,
  type TradeMessage,
} from '../../shared/api/market';
import { bestAsk, bestBid, type ConnectionState, type MarketState } from './marketReducer';
import { useMarketData } from './useMarketData';
import { useSideScroll } from '../app/useSideScroll';

/** Recent trades listed per product. */
const RECENT_TRADES_PER_PRODUCT = 5;

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  idle: 'Not connected',
  connecting: 'Connecting…',
  open: 'Live',
  reconnecting: 'Connection lost, reconnecting…',
};

const quantityFormat = new Intl.NumberFormat('en-US');
const priceFormats = new Map<number, Intl.NumberFormat>();

function formatPrice(price: number, product: MarketProduct): string {
  let format = priceFormats.get(product.priceDecimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: product.priceDecimals,
      maximumFractionDigits: product.priceDecimals,
    });
    priceFormats.set(product.priceDecimals, format);
  }
  return format.format(price);
}

/** Trade time as HH:mm:ss in UTC, the exchange's clock. */
function formatTime(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(11, 19);
}

function sideLabel(trade: TradeMessage | BlockMessage): string {
  if (trade.type === 'block') return 'Block';
  // The taker's side: a bid lifting the offer is a buy.
  return trade.taker_side === 'Bid' ? 'Buy' : 'Sell';
}

/**
 * Best bid and ask and the latest trades of each product, live from the market stream. Meant for
 * the signed-in home page. New trades are not announced to screen readers (they arrive several
 * times a second); only changes of the connection state are.
 */
export function LiveMarketPanel({
  products = MARKET_PRODUCTS,
}: {
  products?: readonly MarketProduct[];
}) {
  const state = useMarketData(products.map((product) => product.code));
  const headingId = useId();
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'baseline', mb: 2 }}>
        <Typography variant="h5" component="h2" id={headingId}>
          Live market
        </Typography>
        <Typography variant="body2" color="text.secondary" role="status">
          {CONNECTION_LABELS[state.connection]}
        </Typography>
      </Stack>
      <TopOfBook products={products} state={state} />
      <Typography variant="h6" component="h3" sx={{ mt: 3, mb: 1 }}>
        Recent trades
      </Typography>
      <Stack spacing={2}>
        {products.map((product) => (
          <RecentTrades key={product.code} product={product} state={state} />
        ))}
      </Stack>
    </Paper>
  );
}

function TopOfBook({
  products,
  state,
}: {
  products: readonly MarketProduct[];
  state: MarketState;
}) {
  const level = (entry: PriceLevel | undefined, product: MarketProduct) =>
    entry ? (
      <>
        {formatPrice(entry[0], product)}{' '}
        <Typography component="span" variant="body2" color="text.secondary">
          ({quantityFormat.format(entry[1])})
        </Typography>
      </>
    ) : (
      '—'
    );
  const { ref, regionProps } = useSideScroll<HTMLDivElement>('Best bid and ask');
  return (
    <TableContainer ref={ref} {...regionProps}>
      <Table size="small" aria-label="Best bid and ask">
        <TableHead>
          <TableRow>
            <TableCell>Product</TableCell>
            <TableCell align="right">Best bid (qty)</TableCell>
            <TableCell align="right">Best ask (qty)</TableCell>
            <TableCell align="right">Last price</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {products.map((product) => {
            const book = state.books[product.code];
            const last = state.trades.find((trade) => trade.symbol === product.code);
            const closed = state.statuses[product.code] === 'Close';
            return (
              <TableRow key={product.code}>
                <TableCell component="th" scope="row">
                  {product.name}{' '}
                  <Typography component="span" variant="body2" color="text.secondary">
                    {product.code}
                  </Typography>
                  {closed && <Chip size="small" label="Closed" sx={{ ml: 1 }} />}
                </TableCell>
                <TableCell align="right">{level(bestBid(book), product)}</TableCell>
                <TableCell align="right">{level(bestAsk(book), product)}</TableCell>
                <TableCell align="right">{last ? formatPrice(last.price, product) : '—'}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function RecentTrades({ product, state }: { product: MarketProduct; state: MarketState }) {
  const trades = state.trades
    .filter((trade) => trade.symbol === product.code)
    .slice(0, RECENT_TRADES_PER_PRODUCT);
  const label = `Recent trades: ${product.name}`;
  const { ref, regionProps } = useSideScroll<HTMLDivElement>(label);
  return (
    <TableContainer ref={ref} {...regionProps}>
      <Table size="small" aria-label={label}>
        <caption style={{ captionSide: 'top', textAlign: 'left', padding: '0 0 4px' }}>
          {product.name}
        </caption>
        <TableHead>
          <TableRow>
            <TableCell>Time (UTC)</TableCell>
            <TableCell>Side</TableCell>
            <TableCell align="right">Price</TableCell>
            <TableCell align="right">Quantity</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {trades.length === 0 ? (
            <TableRow>
              <TableCell colSpan={4}>No trades yet.</TableCell>
            </TableRow>
          ) : (
            trades.map((trade) => (
              <TableRow key={`${trade.type}-${trade.ack_id}`}>
                <TableCell>{formatTime(trade.timestamp)}</TableCell>
                <TableCell>{sideLabel(trade)}</TableCell>
                <TableCell align="right">{formatPrice(trade.price, product)}</TableCell>
                <TableCell align="right">{quantityFormat.format(trade.quantity)}</TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
