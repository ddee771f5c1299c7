/** The console's first page: registrations awaiting review, waiting for changes, decided. */
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

interface ListPageProps {
  pending: readonly ConsoleRegistration[];
  decided: readonly ConsoleRegistration[];
  /** Registrations waiting for the applicant's changes (a section only when there are some). */
  waiting: readonly ConsoleRegistration[];
  signedInAs: string;
}

export function renderListPage(props: ListPageProps): string {
  return renderConsolePage(<ListPage {...props} />);
}

function ListPage({ pending, decided, waiting, signedInAs }: ListPageProps) {
  return (
    <ConsolePage title="Registrations" signedInAs={signedInAs}>
      <section aria-labelledby="pending-heading">
        <h2 id="pending-heading">{`Awaiting review (${pending.length})`}</h2>
        <RegistrationTable rows={pending} decided={false} />
      </section>
      {waiting.length > 0 && (
        <section aria-labelledby="waiting-heading">
          <h2 id="waiting-heading">{`Waiting for the applicant's changes (${waiting.length})`}</h2>
          <RegistrationTable rows={waiting} decided={false} />
        </section>
      )}
      <section aria-labelledby="decided-heading">
        <h2 id="decided-heading">Recent decisions</h2>
        <RegistrationTable rows={decided} decided />
      </section>
    </ConsolePage>
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
