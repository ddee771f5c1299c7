/**
 * A registration's page: its facts, the answers as submitted (`RegistrationAnswers`), its
 * versions, the signature evidence, the decision and the audit trail.
 */
import type { ReactNode } from 'react';
import type { SignatureEvidence } from '../../db/signatureEvidence';
import { EvidenceSection } from '../../signatures/EvidenceSection';
import type { RegistrationDetail } from '../registrationView';
import {
  CHANGES_FORM_ID,
  RegistrationAnswers,
  type AnswersViewProps,
} from '../RegistrationAnswers';
import { RegistrationVersions, versionChangesId, type ShownVersion } from '../RegistrationVersions';
import { AWAITING_REVIEW, OPEN_FOR_DECISION, REJECTABLE } from '../review';
import { AuditTrail, type AuditTrailProps } from './AuditTrail';
import { CONSOLE_BASE } from './consoleAssets';
import { ConsolePage, renderConsolePage } from './ConsolePage';
import {
  ClearingId,
  CSRF_FIELD,
  Email,
  Hidden,
  registrantName,
  StatusBadge,
  utc,
} from './consoleParts';

interface DetailPageProps extends Omit<AuditTrailProps, 'documents' | 'events'> {
  registration: RegistrationDetail & { business?: boolean };
  /** The answers, persons and documents as `RegistrationAnswers` draws them. */
  answers: AnswersViewProps;
  /** Each version with what changed, or a sentence saying why they cannot be shown. */
  versions: readonly ShownVersion[] | string;
  evidence: readonly SignatureEvidence[];
  /** This registration's audit trail, newest first. */
  auditEvents: AuditTrailProps['events'];
  /** Whether the marks beside the answers belong to a request-changes form on this page. */
  marking: boolean;
  /** Why the signed-in reviewer may not decide on this registration (their own), or null. */
  selfReview?: string | null | undefined;
  csrfToken: string;
  signedInAs: string;
  notice?: string | undefined;
  error?: string | undefined;
}

export function renderDetailPage(props: DetailPageProps): string {
  return renderConsolePage(<DetailPage {...props} />);
}

function DetailPage(props: DetailPageProps) {
  const r = props.registration;
  const open = OPEN_FOR_DECISION.includes(r.status);
  // The latest version when there are several: a link at the top leads to what it changed.
  const latestVersion =
    typeof props.versions === 'string' ? undefined : props.versions.at(-1)?.version;
  return (
    <ConsolePage title={`${registrantName(r)}: registration`} signedInAs={props.signedInAs} script>
      <p>
        <a href={CONSOLE_BASE}>← All registrations</a>
      </p>
      {props.notice && (
        <p className="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.error && (
        <p className="error" role="alert">
          {props.error}
        </p>
      )}
      <Facts registration={r} />
      <VersionLinks open={open} latestVersion={latestVersion} />
      <RegistrationAnswers {...props.answers} />
      <RegistrationVersions versions={props.versions} />
      <EvidenceSection
        consoleBase={CONSOLE_BASE}
        registrationId={r.registrationId}
        evidence={props.evidence}
      />
      {REJECTABLE.includes(r.status) && <Decision {...props} open={open} />}
      <AuditTrail
        events={props.auditEvents}
        documents={r.documents}
        promptOf={props.promptOf}
        requested={props.requested}
        documentTitleOf={props.documentTitleOf}
      />
    </ConsolePage>
  );
}

function Facts({ registration: r }: { registration: DetailPageProps['registration'] }) {
  const decidedBy = `${utc(r.reviewedAt)} by ${r.reviewedBy ?? 'operator'}`;
  return (
    <dl className="facts">
      <Fact term="Status">
        <StatusBadge status={r.status} />
      </Fact>
      <Fact term="Email">
        <Email email={r.email} />
      </Fact>
      <Fact term="Organization">
        {`${r.organizationName} (`}
        <ClearingId id={r.clearingOrgId} />)
      </Fact>
      <Fact term="Form">
        <code>{r.formId}</code>
      </Fact>
      <Fact term="Wording version (schema hash)">
        <code>{r.schemaHash}</code>
      </Fact>
      <Fact term="Submitted">{utc(r.submittedAt)}</Fact>
      {r.status === 'changes_requested' ? (
        <>
          <Fact term="Changes requested">{decidedBy}</Fact>
          {r.reason && <Fact term="What to change (shown to the applicant)">{r.reason}</Fact>}
        </>
      ) : (
        !AWAITING_REVIEW.includes(r.status) && (
          <>
            <Fact term="Decided">{decidedBy}</Fact>
            {r.reason && <Fact term="Reason">{r.reason}</Fact>}
          </>
        )
      )}
    </dl>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The links under the facts: to what the latest version changed, to the decision. */
function VersionLinks({ open, latestVersion }: { open: boolean; latestVersion?: number }) {
  if (!latestVersion && !open) return null;
  return (
    <p>
      {latestVersion ? (
        <a href={`#${versionChangesId(latestVersion)}`}>
          {`What changed in version ${latestVersion} ↓`}
        </a>
      ) : null}
      {latestVersion && open ? ' · ' : null}
      {open && <a href="#decision-heading">Go to the decision ↓</a>}
    </p>
  );
}

/** Approve (after a confirmation), Request changes, Reject; or why this reviewer may not. */
/** The decisions open: approve and ask for changes when `open`; reject also while waiting. */
function Decision(props: DetailPageProps & { open: boolean }) {
  const action = `${CONSOLE_BASE}/registrations/${props.registration.registrationId}`;
  return (
    <section aria-labelledby="decision-heading" className="decision">
      <h2 id="decision-heading">Decision</h2>
      {props.selfReview ? (
        <p>{props.selfReview}</p>
      ) : (
        <>
          {props.open ? (
            <form method="get" action={`${action}/approve`}>
              <button type="submit" className="approve">
                Approve…
              </button>
            </form>
          ) : (
            <p>
              Waiting for the applicant&apos;s changes: approve once they are sent. Rejecting now
              closes the application; the applicant can no longer change it.
            </p>
          )}
          {props.open && props.marking && (
            // The marks beside the answers belong to this form (their `form` attribute names it).
            <form method="post" action={`${action}/changes`} id={CHANGES_FORM_ID}>
              <Hidden name={CSRF_FIELD} value={props.csrfToken} />
              <label htmlFor="note">
                A note on the whole application (shown to the applicant and emailed)
              </label>
              <p className="muted" id="note-hint">
                Mark the answers and documents to change with “Mark” beside each; their notes are
                sent with this one.
              </p>
              <textarea
                id="note"
                name="note"
                rows={3}
                maxLength={2000}
                aria-describedby="note-hint"
              />
              <button type="submit" className="changes">
                Request changes
              </button>
            </form>
          )}
          <form method="post" action={`${action}/decision`}>
            <Hidden name={CSRF_FIELD} value={props.csrfToken} />
            <Hidden name="decision" value="reject" />
            <label htmlFor="reason">
              Reason for rejecting (required to reject; shown to the applicant and emailed)
            </label>
            <textarea id="reason" name="reason" rows={3} maxLength={2000} required />
            <button type="submit" className="reject">
              Reject
            </button>
          </form>
        </>
      )}
    </section>
  );
}
