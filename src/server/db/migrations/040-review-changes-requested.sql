-- Staff may ask an applicant for changes before deciding (docs/decisions.md, Applicants and
-- reviewers). `decision_reason` then holds what to change; with a rejection, the reason. Both are
-- shown to the applicant on their home page and in the email that tells them.
alter table registrations drop constraint registrations_status_check;
alter table registrations
  add constraint registrations_status_check
    check (status in ('pending', 'changes_requested', 'approved', 'rejected'));
