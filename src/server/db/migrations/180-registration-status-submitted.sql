-- One status vocabulary (issue 40 §2, docs/api.md): a registration waiting for its first review
-- is `submitted`, the word its application, the applicant's `review.status`, the webhook event
-- and docs/decisions.md already use for that moment; it was stored as `pending`.
alter table registrations drop constraint registrations_status_check;
update registrations set status = 'submitted' where status = 'pending';
alter table registrations
  add constraint registrations_status_check
    check (status in ('submitted', 'changes_requested', 'resubmitted', 'approved', 'rejected'));
alter table registrations alter column status set default 'submitted';

alter table registration_status_changes drop constraint registration_status_changes_status_check;
update registration_status_changes set status = 'submitted' where status = 'pending';
alter table registration_status_changes
  add constraint registration_status_changes_status_check
    check (status in ('submitted', 'changes_requested', 'resubmitted', 'approved', 'rejected'));

-- Stored events say it too (each delivery and resend posts its event's data).
update webhook_events set data = jsonb_set(data, '{status}', '"submitted"')
  where type = 'registration.submitted' and data ->> 'status' = 'pending';
