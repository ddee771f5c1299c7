/**
 * The small pieces every console page draws the same way: names, times, a clearing id, a
 * status, an email, the CSRF field. React escapes what they show.
 */
import type { AdminRegistrationSummary } from '../../../shared/api/admin';
import type { RegistrationStatus } from '../../../shared/api/statuses';

/** The hidden form field carrying the CSRF token (the `csrf_token` cookie's value). */
export const CSRF_FIELD = '_csrf';

/** A registration as the queue lists it: `business` when its form registers a business. */
export type ConsoleRegistration = AdminRegistrationSummary & { business?: boolean };

export const utc = (iso: string | null): string =>
  iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—';

const personName = (r: AdminRegistrationSummary) =>
  [r.firstName, r.lastName].filter(Boolean).join(' ') || '(no name)';

/** Who registered: a business by its name, a person by theirs. */
export const registrantName = (r: ConsoleRegistration) =>
  r.business ? r.organizationName || personName(r) : personName(r);

/** The registrant's name cell: a business's name with the person who registered it. */
export function RegistrantName({ registration: r }: { registration: ConsoleRegistration }) {
  if (!r.business) return <>{personName(r)}</>;
  return (
    <>
      {registrantName(r)}
      <br />
      <span className="muted">{`registered by ${personName(r)}`}</span>
    </>
  );
}

/** A clearing id (`NCF-100001`) kept on one line: never broken at its hyphen. */
export function ClearingId({ id }: { id: string }) {
  return <span className="nowrap">{id}</span>;
}

const STATUS_LABELS: Record<RegistrationStatus, string> = {
  submitted: 'Awaiting review',
  resubmitted: 'Resubmitted, awaiting review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  rejected: 'Rejected',
};

export function StatusBadge({ status }: { status: RegistrationStatus }) {
  return <span className={`status status-${status}`}>{STATUS_LABELS[status]}</span>;
}

/**
 * An email as the console shows it: whole, but free to break after its @ where a column is
 * narrow (never inside a word), so a long address neither overflows into the next column nor
 * reads as two.
 */
export function Email({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

/** A hidden field of a form (the CSRF token, the decision). */
export function Hidden({ name, value }: { name: string; value: string }) {
  return <input type="hidden" name={name} defaultValue={value} />;
}
