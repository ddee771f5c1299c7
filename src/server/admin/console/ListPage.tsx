/** The console's first page: registrations awaiting review, waiting for changes, decided. */
import type { RegistrationStatus } from '../../../shared/api/statuses';
import { AWAITING_REVIEW } from '../review';
import { CONSOLE_BASE } from './consoleAssets';
import { ConsolePage, renderConsolePage } from './ConsolePage';
import {
  ClearingId,
  RegistrantName,
  registrantName,
  StatusBadge,
  utc,
  type ConsoleRegistration,
} from './consoleParts';

/** The sections of the list, each with the statuses it holds, in the order drawn. */
export const CONSOLE_SECTIONS = {
  awaiting: AWAITING_REVIEW,
  waiting: ['changes_requested'],
  decided: ['approved', 'rejected'],
} as const satisfies Record<string, readonly RegistrationStatus[]>;
export type ConsoleSection = keyof typeof CONSOLE_SECTIONS;

/** One page of a section: its rows, the cursor of the next page, and the whole section's count. */
interface SectionPage {
  rows: readonly ConsoleRegistration[];
  next: string | null;
  /** This page is not the section's first. */
  paged: boolean;
  total: number;
}

interface ListPageProps {
  awaiting: SectionPage;
  /** Registrations waiting for the applicant's changes (a section only when there are some). */
  waiting: SectionPage;
  decided: SectionPage;
  /** The cursors the page was asked with, kept by every section's links. */
  query: Partial<Record<ConsoleSection, string>>;
  signedInAs: string;
}

export function renderListPage(props: ListPageProps): string {
  return renderConsolePage(<ListPage {...props} />);
}

function ListPage({ awaiting, decided, waiting, query, signedInAs }: ListPageProps) {
  return (
    <ConsolePage title="Registrations" signedInAs={signedInAs}>
      <section aria-labelledby="awaiting-heading">
        <h2 id="awaiting-heading">{`Awaiting review (${awaiting.total})`}</h2>
        <RegistrationTable rows={awaiting.rows} decided={false} />
        <SectionPager name="awaiting" page={awaiting} query={query} />
      </section>
      {waiting.total > 0 && (
        <section aria-labelledby="waiting-heading">
          <h2 id="waiting-heading">{`Waiting for the applicant's changes (${waiting.total})`}</h2>
          <RegistrationTable rows={waiting.rows} decided={false} />
          <SectionPager name="waiting" page={waiting} query={query} />
        </section>
      )}
      <section aria-labelledby="decided-heading">
        <h2 id="decided-heading">{`Decisions (${decided.total})`}</h2>
        <RegistrationTable rows={decided.rows} decided />
        <SectionPager name="decided" page={decided} query={query} />
      </section>
    </ConsolePage>
  );
}

/** A section's links to its next page and back to its first; the other sections stay where they are. */
function SectionPager({
  name,
  page,
  query,
}: {
  name: ConsoleSection;
  page: SectionPage;
  query: ListPageProps['query'];
}) {
  if (!page.next && !page.paged) return null;
  const href = (cursor: string | null) => {
    const params = new URLSearchParams(
      Object.entries(query).filter(([section]) => section !== name),
    );
    if (cursor) params.set(name, cursor);
    const search = params.toString();
    return `${CONSOLE_BASE}${search ? `?${search}` : ''}#${name}-heading`;
  };
  return (
    <p className="pager">
      {page.paged ? <a href={href(null)}>First page</a> : null}
      {page.paged && page.next ? ' · ' : null}
      {page.next ? <a href={href(page.next)}>Next page →</a> : null}
    </p>
  );
}

function RegistrationTable({
  rows,
  decided,
}: {
  rows: readonly ConsoleRegistration[];
  decided: boolean;
}) {
  if (!rows.length) {
    return <p>{decided ? 'No decisions yet.' : 'No registrations are awaiting review.'}</p>;
  }
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Clearing ID</th>
          {decided ? (
            <>
              <th scope="col">Status</th>
              <th scope="col">Decided</th>
              <th scope="col">By</th>
            </>
          ) : (
            <>
              <th scope="col">Form</th>
              <th scope="col">Submitted</th>
            </>
          )}
          <th scope="col">
            <span className="visually-hidden">Open</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.registrationId}>
            <td>
              <RegistrantName registration={r} />
            </td>
            <td>{r.email}</td>
            <td>
              <ClearingId id={r.clearingOrgId} />
            </td>
            {decided ? (
              <>
                <td>
                  <StatusBadge status={r.status} />
                </td>
                <td>{utc(r.reviewedAt)}</td>
                <td>{r.reviewedBy ?? 'operator'}</td>
              </>
            ) : (
              <>
                <td>{r.formId}</td>
                <td>{utc(r.submittedAt)}</td>
              </>
            )}
            <td>
              <a href={`${CONSOLE_BASE}/registrations/${r.registrationId}`}>
                {decided ? 'View' : 'Review'}
                <span className="visually-hidden">{` ${registrantName(r)}`}</span>
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
