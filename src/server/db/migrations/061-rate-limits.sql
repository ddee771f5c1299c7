-- Rate-limit counters, shared by every instance on this database (a limit holds across a load
-- balancer). Unlogged: written on every limited request, and losing them in a crash is harmless.
create unlogged table rate_limit_counters (
  key text primary key,
  count integer not null,
  window_ends_at timestamptz not null
);
create index rate_limit_counters_window_idx on rate_limit_counters (window_ends_at);
