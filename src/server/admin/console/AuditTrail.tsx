/** A registration's audit trail on its page, newest first, each event in words. */
import type { AuditAction } from '../../audit/recordAuditEvent';
import type { RegistrationAuditEvent } from '../../audit/registrationAuditEvents';
import type { RegistrationDocument } from '../../db/adminQueries';
import { utc } from './consoleParts';

export interface AuditTrailProps {
  /** This registration's audit trail, newest first. */
  events: readonly RegistrationAuditEvent[];
  /** The registration's documents (a download names the one it read). */
  documents: readonly RegistrationDocument[];
  /** An answer's prompt by pointer (audit rows name the answer revealed). */
  promptOf: (pointer: string) => string | undefined;
  /** A document's title by multipart part. */
  documentTitleOf: (part: string) => string | undefined;
  /**
   * The notes of the change request still waiting, by pointer: the latest request's marks are
   * listed with them (the audit row itself keeps pointers only, never a note).
   */
  requested?: ReadonlyMap<string, string> | undefined;
}

/**
 * What each audit action reads as on a registration's page: every action recorded against a
 * registration has its words (the type makes a new one name them).
 */
const AUDIT_ACTION_LABELS: Record<
  | Exclude<Extract<AuditAction, `registration.${string}`>, 'registration.user'>
  | Extract<AuditAction, `application.${string}`>
  | 'esign.consented',
  string
> = {
  'application.created': 'Started the application',
  'application.saved': 'Saved the application',
  'application.file-uploaded': 'Uploaded a file',
  'application.file-removed': 'Removed a file',
  'application.change-refused': 'Refused a change outside the request',
  'esign.consented': 'Gave the e-sign consent',
  'registration.submitted': 'Submitted',
  'registration.resubmitted': 'Submitted again (the same answers)',
  'registration.changes-made': 'Resubmitted with the changes asked for',
  'registration.viewed': 'Viewed in the console',
  'registration.revealed': 'Revealed a sensitive answer',
  'registration.document-downloaded': 'Downloaded a document',
  'registration.changes-requested': 'Requested changes',
  'registration.approved': 'Approved',
  'registration.rejected': 'Rejected',
};

const actionLabel = (action: string): string =>
  Object.hasOwn(AUDIT_ACTION_LABELS, action)
    ? AUDIT_ACTION_LABELS[action as keyof typeof AUDIT_ACTION_LABELS]
    : action;

/** Where an event came from, in words: staff's tools, or the applicant's step a refusal met. */
const VIA_LABELS: Record<string, string> = {
  console: 'through the staff console',
  api: 'through the admin API',
  cli: 'through the command line',
  save: 'on a save',
  upload: 'on an upload',
  removal: 'on a removal',
  resubmission: 'on the resubmission',
};

export function AuditTrail(props: AuditTrailProps) {
  // Rows written before issue 26 recorded a submission twice (this one beside
  // `registration.submitted`, in the same transaction): shown once.
  const events = props.events.filter((event) => event.action !== 'application.submitted');
  return (
    <>
      <h2 id="audit-heading">Audit trail</h2>
      <p className="muted">
        The applicant's work on the application (saves once per step or minute, uploads, removals,
        the e-sign consent, refused changes) and every submission, view, reveal, download and
        decision on this registration, newest first. The trail cannot be edited;{' '}
        <code>npm run admin -- verify-audit</code> checks it.
      </p>
      <table className="audit" aria-labelledby="audit-heading">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">When</th>
            <th scope="col">What</th>
            <th scope="col">Who</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.seq}>
              <td>{event.seq}</td>
              <td>{utc(event.at)}</td>
              <td>{actionLabel(event.action)}</td>
              <td>
                {event.actor.kind === 'staff'
                  ? event.actor.email
                  : event.actor.kind === 'applicant'
                    ? 'the applicant'
                    : 'an operator'}
              </td>
              <td>{eventNotes(props, event).join('; ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The newest change request of the trail (events come newest first). */
const latestRequest = (props: AuditTrailProps) =>
  props.events.find((event) => event.action === 'registration.changes-requested');

/** An event's details in words: version, channel, the answers and documents it names. */
function eventNotes(props: AuditTrailProps, event: RegistrationAuditEvent): string[] {
  const notes: string[] = [];
  const { via, field, fields, documentId, inline, demo, version } = event.detail;
  if (typeof version === 'number') notes.push(`version ${version}`);
  if (typeof via === 'string') notes.push(VIA_LABELS[via] ?? `through ${via}`);
  if (typeof field === 'string') notes.push(props.promptOf(field) ?? field);
  if (Array.isArray(fields) && fields.length) {
    const named = fields.filter((f): f is string => typeof f === 'string');
    const waiting = props.requested && latestRequest(props) === event ? props.requested : null;
    const withNote = (f: string) => {
      const note = waiting?.get(f);
      return `${props.promptOf(f) ?? f}${note ? ` (“${note}”)` : ''}`;
    };
    notes.push(`marked: ${named.map(withNote).join(', ')}`);
  }
  if (typeof documentId === 'string') {
    const document = props.documents.find((d) => d.id === documentId);
    const title = document ? (props.documentTitleOf(document.part) ?? document.part) : null;
    notes.push(`${title ?? 'a document'}${inline === true ? ' (preview)' : ''}`);
  }
  if (demo === true) notes.push('seeded demo data');
  return notes;
}
