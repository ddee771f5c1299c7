-- Issue 26. When each agreement was signed, as the server saw it: the application keeps, by the
-- agreement's pointer, the time of the first save that carried it signed (the browser saves a
-- second after the Electronically Sign press); a signature removed drops its time. Evidence
-- written at submission carries that time beside the submission's own (`signed_at`, kept).
alter table applications
  add column agreements_signed_at jsonb not null default '{}',
  -- The last save written to the audit trail: saves are audited once per step or per minute.
  add column save_audited_at timestamptz;

alter table signature_evidence add column agreed_at timestamptz;

-- The staff console lists a registration's events with its application's (uploads, saves,
-- removals, refusals before the registration existed), found by the application's id.
create index audit_log_application_idx on audit_log ((detail ->> 'applicationId'))
  where detail ? 'applicationId';
-- … and the e-sign consent its signatures relied on, found by the consent's id.
create index audit_log_consent_idx on audit_log ((detail ->> 'consentId'))
  where detail ? 'consentId';
