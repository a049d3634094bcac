/**
 * The tables and functions of the PostgreSQL store, in one schema of their own (default
 * `emcp_store`). `storeSchemaSql(schema)` is the migration: idempotent (`if not exists`,
 * `create or replace`), so every replica may run it at start, and a DBA may run it instead.
 * Version 1:
 *
 * - `sessions(id, record jsonb, expires_at)` and `tasks(id, record jsonb, expires_at null =
 *   until deleted)`: the records; expired rows are invisible, and deleted by `sweep()`.
 * - `streams(id, owner, next, dropped, touched_at)`, `events(seq, stream, n, owner, data,
 *   size)`, `owners(owner, bytes)`, `totals(bytes)`: the SSE event log, changed only by the
 *   functions `append_event` and `forget_stream`, which hold the byte budgets in all and per
 *   owner (a session) under one transaction-scoped advisory lock, oldest events dropped first.
 * - `bus(id, channel, message, created_at)`: bus messages too large for a NOTIFY payload
 *   (PostgreSQL's limit is 8000 bytes), read by id by the listeners and deleted after a minute.
 *
 * @example
 * import { storeSchemaSql } from './postgres-schema.js'
 * const sql = storeSchemaSql('emcp_store') // run it with psql, or let postgresStore() do it
 */
import { quoteIdent } from '../sources/postgres/database.js'

/** The schema version this code writes and reads. */
export const storeSchemaVersion = 1

/** The migration of `schema` to the current version. */
export const storeSchemaSql = (schema: string): string => {
  const s = quoteIdent(schema)
  return `
-- one migration at a time (the script runs as one transaction): replicas may start together
select pg_advisory_xact_lock(hashtext(${quoteLiteral(`emcp-store-migrate:${schema}`)}));
create schema if not exists ${s};
create table if not exists ${s}.version (version int not null);
insert into ${s}.version (version) select ${storeSchemaVersion} where not exists (select 1 from ${s}.version);
create table if not exists ${s}.sessions (id text primary key, record jsonb not null, expires_at timestamptz not null);
create table if not exists ${s}.tasks (id text primary key, record jsonb not null, expires_at timestamptz);
create table if not exists ${s}.streams (id text primary key, owner text not null, next bigint not null default 0, dropped bigint not null default -1, touched_at timestamptz not null default now());
create table if not exists ${s}.events (seq bigserial primary key, stream text not null, n bigint not null, owner text not null, data text not null, size bigint not null);
create index if not exists events_stream on ${s}.events (stream, n);
create index if not exists events_owner on ${s}.events (owner, seq);
create table if not exists ${s}.owners (owner text primary key, bytes bigint not null default 0);
create table if not exists ${s}.totals (one boolean primary key default true check (one), bytes bigint not null default 0);
insert into ${s}.totals (one, bytes) values (true, 0) on conflict do nothing;
create table if not exists ${s}.bus (id bigserial primary key, channel text not null, message jsonb not null, created_at timestamptz not null default now());

create or replace function ${s}.drop_event(victim ${s}.events) returns void language plpgsql as $$
begin
  delete from ${s}.events where seq = victim.seq;
  update ${s}.owners set bytes = bytes - victim.size where owner = victim.owner;
  update ${s}.totals set bytes = bytes - victim.size;
  update ${s}.streams set dropped = greatest(dropped, victim.n) where id = victim.stream;
end $$;

create or replace function ${s}.prime_stream(p_stream text, p_owner text) returns text language plpgsql as $$
declare n bigint;
begin
  insert into ${s}.streams (id, owner) values (p_stream, p_owner) on conflict (id) do nothing;
  update ${s}.streams set next = next + 1, touched_at = now() where id = p_stream returning next - 1 into n;
  return p_stream || '/' || n;
end $$;

create or replace function ${s}.append_event(p_stream text, p_data text, p_max bigint, p_max_owner bigint, p_overhead bigint) returns text language plpgsql as $$
declare
  st ${s}.streams;
  n bigint;
  sz bigint := length(p_data) + p_overhead;
  victim ${s}.events;
begin
  -- one append at a time, in all: the budgets and the eviction order hold under any interleaving
  perform pg_advisory_xact_lock(hashtext(${quoteLiteral(schema)}));
  insert into ${s}.streams (id, owner) values (p_stream, p_stream) on conflict (id) do nothing;
  update ${s}.streams set next = next + 1, touched_at = now() where id = p_stream returning * into st;
  n := st.next - 1;
  if sz > p_max_owner or sz > p_max then
    -- sent, never kept: a replay from before it is refused
    update ${s}.streams set dropped = n where id = p_stream;
    return p_stream || '/' || n;
  end if;
  insert into ${s}.owners (owner) values (st.owner) on conflict do nothing;
  loop
    exit when (select bytes from ${s}.owners where owner = st.owner) + sz <= p_max_owner;
    select * into victim from ${s}.events where owner = st.owner order by seq limit 1;
    exit when victim.seq is null;
    perform ${s}.drop_event(victim);
  end loop;
  loop
    exit when (select bytes from ${s}.totals) + sz <= p_max;
    select * into victim from ${s}.events order by seq limit 1;
    exit when victim.seq is null;
    perform ${s}.drop_event(victim);
  end loop;
  insert into ${s}.events (stream, n, owner, data, size) values (p_stream, n, st.owner, p_data, sz);
  update ${s}.owners set bytes = bytes + sz where owner = st.owner;
  update ${s}.totals set bytes = bytes + sz;
  return p_stream || '/' || n;
end $$;

create or replace function ${s}.forget_stream(p_stream text) returns void language plpgsql as $$
declare victim ${s}.events;
begin
  perform pg_advisory_xact_lock(hashtext(${quoteLiteral(schema)}));
  for victim in select * from ${s}.events where stream = p_stream loop
    perform ${s}.drop_event(victim);
  end loop;
  delete from ${s}.streams where id = p_stream;
end $$;
`
}

/** A string as an SQL literal. */
const quoteLiteral = (text: string): string => `'${text.replace(/'/g, "''")}'`
