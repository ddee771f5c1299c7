import type { DisclosuresResponse } from '../../../src/shared/api/disclosures';
import { currentUserHandler, json, mockApi, type Handler } from '../renderApp';

export const DISCLOSURES_KEY = 'GET /clearing/api/web/disclosures';

export const EMPTY: DisclosuresResponse = {
  firmDisclosure: null,
  dailySegregation: [],
  capitalSummary: [],
  monthlySegregation: [],
  auditedFinancial: [],
};

const daily = (day: string) => ({
  dailyDisclosureDay: day,
  dailyDisclosurePath: `/clearing/disclosures/daily-segregation/${day.slice(0, 10)}.pdf`,
});
const monthly = (category: string, month: string) => ({
  monthlyDisclosureMonth: month,
  monthlyDisclosurePath: `/clearing/disclosures/${category}/${month}.pdf`,
});

export { daily };

/** A listing as the server sends it. */
export const LISTING: DisclosuresResponse = {
  firmDisclosure: {
    firmDisclosureDate: '2026-01-02',
    firmDisclosurePath: '/clearing/disclosures/firm-disclosure/2026-01-02.pdf',
    firmDisclosureLatestPath: '/clearing/disclosures/firm-disclosure/latest.pdf',
  },
  dailySegregation: [
    { month: '2026-04', days: ['2026-04-02', '2026-04-01'].map(daily) },
    { month: '2026-03', days: ['2026-03-31', '2026-03-30'].map(daily) },
  ],
  capitalSummary: ['2026-03', '2026-02'].map((month) => monthly('capital-summary', month)),
  monthlySegregation: ['2026-03', '2026-02', '2026-01'].map((month) =>
    monthly('monthly-segregation', month),
  ),
  auditedFinancial: [
    {
      yearlyDisclosureYear: '2025',
      yearlyDisclosurePath: '/clearing/disclosures/audited-financial/2025.pdf',
    },
    {
      yearlyDisclosureYear: '2024',
      yearlyDisclosurePath: '/clearing/disclosures/audited-financial/2024.pdf',
    },
  ],
};

/** A signed-out visitor (the pages are public) and the disclosures call answering `handler`. */
export function mockDisclosures(handler: Handler | DisclosuresResponse) {
  return mockApi({
    'GET user': currentUserHandler(null),
    [DISCLOSURES_KEY]: typeof handler === 'function' ? handler : () => json(200, handler),
  });
}
