import type { StatementResponse } from '../../../src/shared/api/statement';

/** A small statement with the values formatting must get right: thousands, negatives, scales. */
export function statementFixture(overrides: Partial<StatementResponse> = {}): StatementResponse {
  return {
    organizationName: 'Stone Capital LLC',
    asOf: '2026-11-20',
    accountSummaries: [
      {
        externalAccountId: 'EXT-1',
        clearingAccountId: 'CA-1',
        cash: {
          CustomerSegregated: {
            origin: 'CustomerSegregated',
            beginningBalance: '1234567.5',
            depositsAndWithdrawals: '-25000.00',
            endingBalance: '1209567.50',
          },
        },
        purchasesAndSales: '-695.00',
        longOptionValue: '0.00',
        shortOptionValue: '0.00',
        openTradeEquity: '5974.80',
        netLiquidatingValue: '1215542.30',
        initialMargin: '85100.00',
        maintenanceMargin: '76590.00',
        marginExcess: '1130442.30',
        fees: { Clearing: '-21.40', Exchange: '-1053.50' },
      },
    ],
    openPositions: [
      {
        symbol: 'BTC-FUT',
        marketPrice: '97450',
        netPosition: { tag: 'Long', contents: 3 },
        vwaPrice: '95820',
        openTradeEquity: '4890.00',
      },
      {
        symbol: 'HASH-PH-FUT',
        marketPrice: '52.35',
        netPosition: { tag: 'Short', contents: 1400 },
        vwaPrice: '53.10',
        openTradeEquity: '-300.00',
      },
    ],
    trades: [
      {
        time: '2026-11-02T14:31:07.412Z',
        symbol: 'BTC-FUT',
        side: 'Buy',
        quantity: 2,
        price: '96100',
        notionalValue: '192200.00',
        fillId: 'NSF-7301845560',
        executionId: 'NSX-202611102-48213-A',
      },
    ],
    cashTransactions: [
      {
        transactionOrigin: 'CustomerSegregated',
        transactionTime: '2026-11-13T16:55:41Z',
        transactionType: 'Withdrawal',
        currency: 'USD',
        amount: '-10000',
        transactionId: 'NCT-1',
      },
      {
        transactionOrigin: 'CustomerSegregated',
        transactionTime: '2026-11-14T09:00:00Z',
        transactionType: 'Deposit',
        currency: 'USD',
        amount: '1234.565',
        transactionId: 'NCT-2',
      },
    ],
    perpsFundingPayments: {
      'BTCUSD-PERP': [
        {
          externalAccountId: 'EXT-1',
          intervalOpenTime: '2026-11-17T16:00:00Z',
          intervalCloseTime: '2026-11-18T00:00:00Z',
          amount: '-12.18',
        },
      ],
    },
    ...overrides,
  };
}
