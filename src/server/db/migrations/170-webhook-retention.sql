-- The cleanup of old webhook deliveries (issue 40 §5; src/server/webhooks/retention.ts): it finds
-- completed deliveries by when they completed, and events no delivery names any more. The
-- event_id index also serves the cascade from an event to its deliveries.
create index webhook_deliveries_completed_idx on webhook_deliveries (completed_at)
  where state <> 'pending';
create index webhook_deliveries_event_idx on webhook_deliveries (event_id);
create index webhook_events_created_idx on webhook_events (created_at);
