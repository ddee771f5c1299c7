-- Deleting a delivery sets the resend_of of its resends to null (migration 160): without an index
-- each deleted row scanned every delivery, so the cleanup (migration 170) took 21 s for 20,000.
create index webhook_deliveries_resend_of_idx on webhook_deliveries (resend_of)
  where resend_of is not null;
