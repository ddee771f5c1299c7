/**
 * Asks staff to confirm a decision, naming the applicant (no script: a page of its own, whose
 * form carries `confirmed`, without which the server does not decide): Approve and Reject.
 */
import type { ReactNode } from 'react';
import { CONSOLE_BASE } from './consoleAssets';
import { ConsolePage, renderConsolePage } from './ConsolePage';
import {
  ClearingId,
  CSRF_FIELD,
  Hidden,
  registrantName,
  type ConsoleRegistration,
} from './consoleParts';

interface ConfirmDecisionProps {
  registration: ConsoleRegistration;
  csrfToken: string;
  signedInAs: string;
}

/** The approval's page: the applicant is told by email and can then use their account. */
export function renderApprovePage(props: ConfirmDecisionProps): string {
  return renderConsolePage(
    <ConfirmDecision {...props} decision="approve" verb="Approve">
      {'. They will be told by email and can then use their account.'}
    </ConfirmDecision>,
  );
}

/**
 * The rejection's page (issue 38 §5: Approve asked, Reject took one click): the reason they will
 * be emailed, carried to the decision.
 */
export function renderRejectPage(props: ConfirmDecisionProps & { reason: string }): string {
  return renderConsolePage(
    <ConfirmDecision
      {...props}
      decision="reject"
      verb="Reject"
      fields={{ reason: props.reason }}
      after={
        <>
          <blockquote className="reason">{props.reason}</blockquote>
          <p>A rejection cannot be undone here.</p>
        </>
      }
    >
      {'. They will be emailed this reason, and it shows on their home page:'}
    </ConfirmDecision>,
  );
}

function ConfirmDecision(
  props: ConfirmDecisionProps & {
    decision: 'approve' | 'reject';
    verb: string;
    fields?: Record<string, string>;
    after?: ReactNode;
    children: ReactNode;
  },
) {
  const { registration: r, csrfToken, signedInAs, decision, verb } = props;
  const back = `${CONSOLE_BASE}/registrations/${r.registrationId}`;
  const name = registrantName(r);
  return (
    <ConsolePage title={`${verb} ${name}?`} signedInAs={signedInAs}>
      <p>
        {`You are about to ${decision} the registration of `}
        <strong>{`${name} (${r.email})`}</strong>
        {', clearing id '}
        <ClearingId id={r.clearingOrgId} />
        {props.children}
      </p>
      {props.after}
      <form method="post" action={`${back}/decision`} className="confirm">
        <Hidden name={CSRF_FIELD} value={csrfToken} />
        <Hidden name="decision" value={decision} />
        {Object.entries(props.fields ?? {}).map(([field, value]) => (
          <Hidden key={field} name={field} value={value} />
        ))}
        <Hidden name="confirmed" value={r.registrationId} />
        <button type="submit" className={decision}>{`${verb} ${name}`}</button>
        <a href={back}>Cancel</a>
      </form>
    </ConsolePage>
  );
}
