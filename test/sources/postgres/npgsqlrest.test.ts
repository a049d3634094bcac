/**
 * Comments and files written for NpgsqlRest, served unchanged through the public API, on
 * PGlite and on a real server: the seed cases, resolved parameters, files that are never run
 * at start, JSON null, numeric, and the column order of results.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fromPostgres, type Database, type PostgresTools } from '../../../src/sources/postgres/index.js'
import { call, targets, unique } from './targets.js'

const schemaSql = (s: string) => `
create schema ${s};
create table ${s}.tickets (id serial primary key, customer text not null, title text not null, status text not null default 'open', amount numeric(30,9));
insert into ${s}.tickets (customer, title, amount, status) values
  ('ann', 'printer', 10.5, 'open'), ('bob', 'screen', 0, 'open'), ('ann', 'mouse', null, 'open'), ('bob', 'cable', 3, 'closed');
create table ${s}.customers (id serial primary key, email text unique, name text);
insert into ${s}.customers (email, name) values ('ann@example.com', 'ann'), ('bob@example.com', 'bob');

create function ${s}.open_tickets() returns table (title text, id int, customer text) language sql stable as
  $$ select title, id, customer from ${s}.tickets where status = 'open' order by id $$;
comment on function ${s}.open_tickets is 'Lists the open tickets.
HTTP GET /api/tickets/open
@mcp';

create function ${s}.close_ticket(_id int) returns void language sql as $$ update ${s}.tickets set status = 'closed' where id = _id $$;
comment on function ${s}.close_ticket is '@mcp_description Closes a ticket.';

create function ${s}.count_open() returns bigint language sql stable as $$ select count(*) from ${s}.tickets where status = 'open' $$;
comment on function ${s}.count_open is '@mcp_desc Counts the open tickets.';

create function ${s}.tickets_of(_email text, _customer text default null) returns table (id int, title text) language sql stable as
  $$ select id, title from ${s}.tickets where customer = _customer order by id $$;
comment on function ${s}.tickets_of is 'Tickets of the customer with this e-mail.
HTTP GET
authorize
allow_anonymous
_customer = select name from ${s}.customers where email = {_email}
@mcp';

create function ${s}.half_resolved(_email text, _customer text) returns text language sql as $$ select _customer $$;
comment on function ${s}.half_resolved is '@mcp A resolved parameter without its SQL.
_customer =';

create function ${s}.described(_n numeric, _t text) returns text language sql immutable as
  $$ select coalesce(_n::text, 'NULL') || '/' || coalesce(_t, 'NULL') $$;
comment on function ${s}.described is '@mcp Says what it got.';

create type ${s}.zebra as (zeta int, alpha text, mid numeric);
create function ${s}.zebra_of(_n numeric) returns ${s}.zebra language sql as $$ select row(1, 'a', _n)::${s}.zebra $$;
comment on function ${s}.zebra_of is 'mcp_name zebra
Its columns in their declared order.';

create function ${s}.off() returns int language sql as $$ select 1 $$;
comment on function ${s}.off is '@mcp Never served.
disabled';

create function ${s}.caller() returns text language sql stable as
  $$ select coalesce(current_setting('emcp.subject', true), '<unset>') || ':' || coalesce(current_setting('emcp.roles', true), '<unset>') $$;
comment on function ${s}.caller is '@mcp Who calls.';

create function ${s}.http_only() returns int language sql as $$ select 1 $$;
comment on function ${s}.http_only is 'An NpgsqlRest endpoint, not a tool.
HTTP GET';
`

const wide = Array.from({ length: 60 }, (_, i) => `${i} as c${60 - i}`).join(', ')

const files = (s: string) => [
  { path: 'sql/delete_closed.sql', text: `-- @mcp_description Deletes the closed tickets.\ndelete from ${s}.tickets where status = 'closed'` },
  { path: 'sql/purge.sql', text: `-- Empties the table (a maintenance script).\ndelete from ${s}.tickets;` },
  {
    path: 'sql/cheap.sql',
    text: `-- Tickets up to an amount.\n-- HTTP GET\n-- @param $1 max_amount numeric\n-- @param $2 is customer_name\n-- @mcp\nselect title, amount, id from ${s}.tickets where amount <= $1 and customer = $2 order by id`,
  },
  {
    path: 'sql/by_email.sql',
    text: `/* Tickets of a customer, by e-mail.\n   @param $1 email text\n   @param $2 customer\n   customer = select name from ${s}.customers where email = {email}\n   @mcp */\nselect id, title from ${s}.tickets where customer = $2 and $1 is not null order by id`,
  },
  { path: 'sql/open.sql', text: `-- @mcp_desc Opens a ticket.\n-- @param $1 customer\n-- @param $2 title\ninsert into ${s}.tickets (customer, title) values ($1, $2) returning title, id` },
  { path: 'sql/wide.sql', text: `-- @mcp Sixty columns.\nselect ${wide}` },
  {
    path: 'sql/named.sql',
    text: `-- Tickets of a customer, from an amount.\n-- @param :min_amount numeric\n-- @param status default null\n-- @mcp\nselect id, title from ${s}.tickets\nwhere customer = :customer and amount >= :min_amount and status = coalesce(:status, status) and :Customer is not null order by id`,
  },
]

for (const target of targets)
  describe(`postgres on ${target.name}: NpgsqlRest comments and files, unchanged`, () => {
    const s = unique('emcp_n')
    let db: Database
    let pg: PostgresTools
    const warnings: string[] = []
    const tool = (n: string) => pg.tools().find((t) => t.tool.name === n)?.tool
    const count = async (where = 'true'): Promise<number> => Number((await db.query(`select count(*)::int as n from ${s}.tickets where ${where}`)).rows[0]?.n)

    beforeAll(async () => {
      db = await target.open()
      await db.exec(schemaSql(s))
      pg = await fromPostgres(db, { schemas: [s], sqlFiles: files(s), onWarning: (w) => warnings.push(w) })
    }, 60_000)
    afterAll(async () => {
      await db?.exec(`drop schema if exists ${s} cascade`).catch(() => undefined)
      await db?.close()
    })

    it('serves the seed cases: bare @mcp under an HTTP line, @mcp_description alone, @mcp_desc alone, a file with only @mcp_description', () => {
      expect(pg.tools().map((t) => t.tool.name).sort()).toEqual(
        ['by_email', 'caller', 'cheap', 'close_ticket', 'count_open', 'delete_closed', 'described', 'named', 'open', 'open_tickets', 'tickets_of', 'wide', 'zebra'].sort(),
      )
      expect(tool('open_tickets')?.description).toBe('Lists the open tickets.')
      expect(tool('close_ticket')?.description).toBe('Closes a ticket.')
      expect(tool('count_open')?.description).toBe('Counts the open tickets.')
      expect(tool('delete_closed')?.description).toBe('Deletes the closed tickets.')
      expect(tool('tickets_of')?.description).toBe('Tickets of the customer with this e-mail.')
      expect(tool('cheap')?.description).toBe('Tickets up to an amount.')
      expect(tool('zebra')?.description).toBe('Its columns in their declared order.')
      expect(pg.skipped()).toEqual([
        { source: `${s}.half_resolved(_email text, _customer text)`, reason: 'resolved parameter _customer has no SQL after its = (the model never supplies a resolved parameter)' },
        { source: `${s}.off()`, reason: 'its comment says disabled (NpgsqlRest)' },
      ])
      expect(warnings).toContain(`${s}.half_resolved(_email text, _customer text) is not served: resolved parameter _customer has no SQL after its = (the model never supplies a resolved parameter)`)
    })

    it('never runs a file given as a tool at start; a file without MCP annotations is left out, named, and not run', async () => {
      expect(await count()).toBe(4)
      expect(await count(`status = 'closed'`)).toBe(1)
      expect(warnings).toContain(
        'sql/purge.sql: no @mcp, @mcp_description, @mcp_desc or @mcp_name in its comments: not a tool, not served, not run (a setup script goes to --init)',
      )
      expect(await call(pg.server, 'delete_closed', {})).toEqual({ content: [{ type: 'text', text: 'done' }] })
      expect(await count(`status = 'closed'`)).toBe(0)
      expect(await count()).toBe(3)
    })

    it('a resolved parameter is filled by the server from its SQL, never asked of the model', async () => {
      expect(tool('tickets_of')?.inputSchema).toEqual({ type: 'object', properties: { email: { type: ['string', 'null'] } }, required: ['email'], additionalProperties: false })
      const r = await call(pg.server, 'tickets_of', { email: 'ann@example.com' })
      expect(r.structuredContent.rows.map((x: { title: string }) => x.title)).toEqual(['printer', 'mouse'])
      expect((await call(pg.server, 'tickets_of', { email: 'nobody@example.com' })).structuredContent).toEqual({ rows: [] })
      const forced = await call(pg.server, 'tickets_of', { email: 'nobody@example.com', customer: 'ann' })
      expect(forced.isError).toBe(true)
      // in a file too
      expect(tool('by_email')?.inputSchema).toEqual({ type: 'object', properties: { email: { type: ['string', 'null'] } }, required: ['email'], additionalProperties: false })
      expect((await call(pg.server, 'by_email', { email: 'bob@example.com' })).structuredContent).toEqual({ rows: [{ id: 2, title: 'screen' }] })
    })

    it('a void function runs and answers done; a function with no arguments sees who calls, and only that call does', async () => {
      expect(await call(pg.server, 'close_ticket', { id: 2 })).toEqual({ content: [{ type: 'text', text: 'done' }] })
      expect(await count(`id = 2 and status = 'closed'`)).toBe(1)
      const who = async (identity?: { subject: string; roles: string[] }) => (await call(pg.server, 'caller', {}, identity)).structuredContent.value
      expect(await who({ subject: 'ann', roles: ['a', 'b'] })).toBe('ann:a,b')
      // the settings end with the call: calls without an identity, many at once over every connection, see none
      const after = await Promise.all(Array.from({ length: 12 }, () => who()))
      for (const w of after) expect(['<unset>:<unset>', ':']).toContain(w)
      expect(await who()).toBe(':')
    })

    it('@authorize then allow_anonymous: anyone may call (the later line wins, as in NpgsqlRest)', () => {
      expect(pg.tools().find((t) => t.tool.name === 'tickets_of')?.authorize).toBeUndefined()
    })

    it('JSON null is an argument: SQL NULL, and the schema says so', async () => {
      expect(tool('described')?.inputSchema.properties).toEqual({
        n: { type: ['string', 'number', 'null'], pattern: expect.any(String), description: expect.stringMatching(/^numeric/) },
        t: { type: ['string', 'null'] },
      })
      expect((await call(pg.server, 'described', { n: null, t: null })).structuredContent).toEqual({ value: 'NULL/NULL' })
      expect((await call(pg.server, 'cheap', { max_amount: null, customer_name: 'ann' })).structuredContent).toEqual({ rows: [] })
    })

    it('numeric takes JSON numbers and decimal strings; strings keep every digit; results are strings', async () => {
      const said = async (n: unknown) => (await call(pg.server, 'described', { n, t: 'x' })).structuredContent?.value
      expect(await said('12345678901234567890.123456789012345678901234567890')).toBe('12345678901234567890.123456789012345678901234567890/x')
      expect(await said(2.5)).toBe('2.5/x')
      expect(await said(-1e3)).toBe('-1000/x')
      expect(await said('-1.5e3')).toBe('-1500/x')
      expect(await said('.5')).toBe('0.5/x')
      for (const bad of ['abc', '1,5', '1e', '--1', ' 1', '1.2.3']) expect((await call(pg.server, 'described', { n: bad, t: 'x' })).isError).toBe(true)
      // the decimal pattern runs in linear time: hostile near-misses of 100 000 characters are refused at once
      const pattern = new RegExp((tool('described')?.inputSchema.properties as { n: { pattern: string } }).n.pattern, 'u')
      const hostile = ['1'.repeat(100_000) + 'x', '1.' + '1'.repeat(100_000) + 'e', '.' + '1'.repeat(100_000) + 'e+', '1e' + '1'.repeat(100_000) + '.']
      const started = performance.now()
      for (const h of hostile) expect(pattern.test(h)).toBe(false)
      expect(performance.now() - started).toBeLessThan(2000)
      expect((await call(pg.server, 'described', { n: hostile[0], t: 'x' })).isError).toBe(true)
      expect((await call(pg.server, 'cheap', { max_amount: 10.5, customer_name: 'ann' })).structuredContent).toEqual({
        rows: [{ title: 'printer', amount: '10.500000000', id: 1 }],
      })
      expect((await call(pg.server, 'zebra', { n: '0.1000' })).structuredContent).toEqual({ zeta: 1, alpha: 'a', mid: '0.1000' })
    })

    it('result rows keep the column order of the query', async () => {
      const keys = (o: object) => Object.keys(o)
      expect(keys((await call(pg.server, 'open_tickets', {})).structuredContent.rows[0])).toEqual(['title', 'id', 'customer'])
      expect(keys((await call(pg.server, 'zebra', { n: 1 })).structuredContent)).toEqual(['zeta', 'alpha', 'mid'])
      expect(keys((await call(pg.server, 'cheap', { max_amount: 100, customer_name: 'ann' })).structuredContent.rows[0])).toEqual(['title', 'amount', 'id'])
      expect(keys((await call(pg.server, 'open', { customer: 'cy', title: 'desk' })).structuredContent.rows[0])).toEqual(['title', 'id'])
      const w = await call(pg.server, 'wide', {})
      expect(keys(w.structuredContent.rows[0])).toEqual(Array.from({ length: 60 }, (_, i) => `c${60 - i}`))
      expect(w.structuredContent.rows[0].c1).toBe(59)
      // the text block carries the same JSON, in the same order
      expect(keys(JSON.parse(w.content[0].text).rows[0])[0]).toBe('c60')
    })

    it("NpgsqlRest's named :name parameters: one argument per name, typed and made optional by @param lines", async () => {
      expect(tool('named')?.inputSchema).toEqual({
        type: 'object',
        properties: {
          customer: { type: ['string', 'null'] },
          min_amount: { type: ['string', 'number', 'null'], pattern: expect.any(String), description: expect.any(String) },
          status: { type: ['string', 'null'] },
        },
        required: ['customer', 'min_amount'],
        additionalProperties: false,
      })
      expect((await call(pg.server, 'named', { customer: 'ann', min_amount: 1 })).structuredContent).toEqual({ rows: [{ id: 1, title: 'printer' }] })
      expect((await call(pg.server, 'named', { customer: 'ann', min_amount: '0', status: 'closed' })).structuredContent).toEqual({ rows: [] })
    })

    it("@param $n name [type] and $n is name: NpgsqlRest's names and types for a file's parameters", () => {
      expect(tool('cheap')?.inputSchema).toMatchObject({
        properties: { max_amount: { type: ['string', 'number', 'null'] }, customer_name: { type: ['string', 'null'] } },
        required: ['max_amount', 'customer_name'],
      })
    })
  })
