/**
 * Asks staff to confirm an approval, naming the applicant (no script: a page of its own, whose
 * form carries `confirmed`, without which the server does not approve).
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

interface ApprovePageProps {
  registration: ConsoleRegistration;
  csrfToken: string;
  signedInAs: string;
}

export function renderApprovePage(props: ApprovePageProps): string {
  return renderConsolePage(<ApprovePage {...props} />);
}

function ApprovePage({ registration: r, csrfToken, signedInAs }: ApprovePageProps) {
  const back = `${CONSOLE_BASE}/registrations/${r.registrationId}`;
  const name = registrantName(r);
  return (
    <ConsolePage title={`Approve ${name}?`} signedInAs={signedInAs}>
      <p>
        {'You are about to approve the registration of '}
        <strong>{`${name} (${r.email})`}</strong>
        {', clearing id '}
        <ClearingId id={r.clearingOrgId} />
        {'. They will be told by email and can then use their account.'}
      </p>
      <form method="post" action={`${back}/decision`} className="confirm">
        <Hidden name={CSRF_FIELD} value={csrfToken} />
        <Hidden name="decision" value="approve" />
        <Hidden name="confirmed" value={r.registrationId} />
        <button type="submit" className="approve">{`Approve ${name}`}</button>
        <a href={back}>Cancel</a>
      </form>
    </ConsolePage>
  );
}
