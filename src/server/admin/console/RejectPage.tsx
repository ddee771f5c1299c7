/**
 * Asks staff to confirm a rejection, naming the applicant and the reason they will be emailed
 * (issue 38 §5: Approve asked, Reject took one click). The form carries `confirmed`, without
 * which the server does not reject.
 */
import { CONSOLE_BASE } from './consoleAssets';
import { ConsolePage, renderConsolePage } from './ConsolePage';
import {
  ClearingId,
  CSRF_FIELD,
  Hidden,
  registrantName,
  type ConsoleRegistration,
} from './consoleParts';

interface RejectPageProps {
  registration: ConsoleRegistration;
  reason: string;
  csrfToken: string;
  signedInAs: string;
}

export function renderRejectPage(props: RejectPageProps): string {
  return renderConsolePage(<RejectPage {...props} />);
}

function RejectPage({ registration: r, reason, csrfToken, signedInAs }: RejectPageProps) {
  const back = `${CONSOLE_BASE}/registrations/${r.registrationId}`;
  const name = registrantName(r);
  return (
    <ConsolePage title={`Reject ${name}?`} signedInAs={signedInAs}>
      <p>
        {'You are about to reject the registration of '}
        <strong>{`${name} (${r.email})`}</strong>
        {', clearing id '}
        <ClearingId id={r.clearingOrgId} />
        {'. They will be emailed this reason, and it shows on their home page:'}
      </p>
      <blockquote className="reason">{reason}</blockquote>
      <p>A rejection cannot be undone here.</p>
      <form method="post" action={`${back}/decision`} className="confirm">
        <Hidden name={CSRF_FIELD} value={csrfToken} />
        <Hidden name="decision" value="reject" />
        <Hidden name="reason" value={reason} />
        <Hidden name="confirmed" value={r.registrationId} />
        <button type="submit" className="reject">{`Reject ${name}`}</button>
        <a href={back}>Cancel</a>
      </form>
    </ConsolePage>
  );
}
