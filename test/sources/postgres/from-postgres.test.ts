import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fromPostgres, type Database, type PostgresTools } from '../../../src/sources/postgres/index.js'
import { newSession, outbound } from '../../../src/index.js'
import { call, listed, rpc, targets, unique } from './targets.js'

const schemaSql = (s: string, staff: string) => `
create schema ${s};
create type ${s}.color as enum ('red', 'green', 'blue');
create domain ${s}.positive as integer check (value > 0);
create type ${s}.point2 as (x numeric, y numeric, label text);
create table ${s}.items (id serial primary key, name text not null, price numeric(10,2) not null);
insert into ${s}.items (name, price) values ('apple', 0.50), ('pear', 1.25);
comment on column ${s}.items.price is 'Unit price in euros.';

create function ${s}.echo_all(_t text, _i integer, _b bigint, _n numeric, _f double precision, _bool boolean, _j jsonb,
  _u uuid, _d date, _ts timestamptz, _by bytea, _arr text[], _c ${s}.color, _dom ${s}.positive, _p ${s}.point2)
returns table(t text, i integer, b bigint, n numeric, f double precision, bool boolean, j jsonb, u uuid, d date,
  ts timestamptz, "by" bytea, arr text[], c ${s}.color, dom ${s}.positive, p ${s}.point2)
language sql as $$ select _t, _i, _b, _n, _f, _bool, _j, _u, _d, _ts, _by, _arr, _c, _dom, _p $$;
comment on function ${s}.echo_all is '@mcp Echoes one value of each kind.';

create function ${s}.add(a integer, b integer default 1) returns integer language sql as $$ select a + b $$;
comment on function ${s}.add is 'Adds two integers (this prose loses to the inline text).
@mcp Adds b (default 1) to a.';

create function ${s}.list_items() returns setof ${s}.items language sql stable as $$ select * from ${s}.items order by id $$;
comment on function ${s}.list_items is 'Prose that must not leak.
@mcp
@mcp_name all_items
@mcp_desc First description.
@mcp_description Lists every item.';

create function ${s}.count_items() returns bigint language sql stable as $$ select count(*) from ${s}.items $$;
comment on function ${s}.count_items is '@mcp';

create function ${s}.add_item(_name text, _price numeric) returns ${s}.items language sql as
  $$ insert into ${s}.items (name, price) values (_name, _price) returning * $$;
comment on function ${s}.add_item is 'Adds an item.
@mcp
@authorize ${staff}, admin';

create function ${s}.secret() returns text language sql as $$ select 'the secret' $$;
comment on function ${s}.secret is '@mcp Tells the secret.
@authorize';

create function ${s}.fail(_x integer) returns integer language plpgsql as
  $$ begin raise exception 'bad x: %', _x using errcode = '22023', hint = 'try another x'; end $$;
comment on function ${s}.fail is '@mcp Always fails.';

create procedure ${s}.touch(_name text) language sql as $$ update ${s}.items set name = _name where id = 1 $$;
comment on procedure ${s}.touch is '@mcp Renames the first item.';

create function ${s}.rec() returns record language sql as $$ select 1, 2 $$;
comment on function ${s}.rec is '@mcp Cannot be described.';

create function ${s}.hidden() returns integer language sql as $$ select 1 $$;
comment on function ${s}.hidden is 'No annotation here: not a tool (mentions mcp but not @ it).';
`

for (const target of targets)
  describe(`postgres on ${target.name}: fromPostgres`, () => {
    const s = unique('emcp_t')
    const staff = unique('staff')
    let db: Database
    let pg: PostgresTools
    const warnings: string[] = []

    beforeAll(async () => {
      db = await target.open()
      await db.exec(schemaSql(s, staff))
      pg = await fromPostgres(db, { schemas: [s], name: 'test-db', onWarning: (w) => warnings.push(w) })
    }, 120_000)
    afterAll(async () => {
      await pg?.close()
      await db?.exec(`drop schema if exists ${s} cascade`).catch(() => undefined)
      await db?.close()
    })

    it('serves exactly the routines whose comment carries @mcp, by name', async () => {
      expect(pg.tools().map((t) => t.tool.name).sort()).toEqual(['add', 'add_item', 'all_items', 'count_items', 'echo_all', 'fail', 'secret', 'touch'])
      expect(pg.skipped()).toEqual([{ source: `${s}.rec()`, reason: expect.stringMatching(/returns record without OUT parameters/) }])
      expect(pg.server.info.name).toBe('test-db')
    })

    it('describes by precedence: @mcp_description > inline @mcp text > prose > name (with a warning)', () => {
      const d = (n: string) => pg.tools().find((t) => t.tool.name === n)?.tool.description
      expect(d('all_items')).toBe('Lists every item.')
      expect(d('add')).toBe('Adds b (default 1) to a.')
      expect(d('add_item')).toBe('Adds an item.')
      expect(d('count_items')).toBe('count_items')
      expect(warnings.some((w) => w.includes('count_items') && w.includes('no description'))).toBe(true)
    })

    it('derives the input schema from the parameters: underscores dropped, defaults optional', () => {
      const add = pg.tools().find((t) => t.tool.name === 'add')?.tool
      expect(add?.inputSchema).toEqual({
        type: 'object',
        properties: { a: { type: ['integer', 'null'], minimum: -2147483648, maximum: 2147483647 }, b: { type: ['integer', 'null'], minimum: -2147483648, maximum: 2147483647 } },
        required: ['a'],
        additionalProperties: false,
      })
      expect(add?.outputSchema).toEqual({
        type: 'object',
        properties: { value: { type: ['integer', 'null'], minimum: -2147483648, maximum: 2147483647, description: 'the integer add returns' } },
        required: ['value'],
        additionalProperties: false,
      })
      // outputs are described too, down to the columns' comments
      const items = pg.tools().find((t) => t.tool.name === 'all_items')?.tool.outputSchema as any
      expect(items.properties.rows.description).toBe('the rows list_items returns, in its order')
      expect(items.properties.rows.items.properties.price).toMatchObject({ type: ['string', 'null'], description: 'Unit price in euros.' })
      const echo = pg.tools().find((t) => t.tool.name === 'echo_all')?.tool
      const props = echo?.inputSchema.properties as Record<string, Record<string, unknown>>
      expect(Object.keys(props)).toEqual(['t', 'i', 'b', 'n', 'f', 'bool', 'j', 'u', 'd', 'ts', 'by', 'arr', 'c', 'dom', 'p'])
      // every argument may be null (SQL NULL); numeric takes a JSON number or a decimal string
      expect(props.n).toMatchObject({ type: ['string', 'number', 'null'] })
      expect(props.u).toEqual({ type: ['string', 'null'], format: 'uuid' })
      expect(props.d).toEqual({ type: ['string', 'null'], format: 'date' })
      expect(props.ts).toEqual({ type: ['string', 'null'], format: 'date-time' })
      expect(props.by).toMatchObject({ type: ['string', 'null'], contentEncoding: 'base64' })
      expect(props.arr).toEqual({ type: ['array', 'null'], items: { type: ['string', 'null'] } })
      expect(props.c).toEqual({ type: ['string', 'null'], enum: ['red', 'green', 'blue', null] })
      expect(props.dom).toMatchObject({ type: ['integer', 'null'] })
      expect(props.p).toMatchObject({ type: ['object', 'null'], properties: { x: { type: ['string', 'number', 'null'] }, label: { type: ['string', 'null'] } } })
    })

    it('calls a scalar function: {value}, with and without the optional argument', async () => {
      expect((await call(pg.server, 'add', { a: 2 })).structuredContent).toEqual({ value: 3 })
      expect((await call(pg.server, 'add', { a: 2, b: 40 })).structuredContent).toEqual({ value: 42 })
      expect((await call(pg.server, 'count_items', {})).structuredContent.value).toBeGreaterThanOrEqual(2)
    })

    it('calls a set-returning function: {rows}, numeric as exact strings', async () => {
      const r = await call(pg.server, 'all_items', {})
      expect(r.structuredContent.rows.slice(0, 2)).toEqual([
        { id: 1, name: expect.any(String), price: '0.50' },
        { id: 2, name: 'pear', price: '1.25' },
      ])
    })

    it('round-trips every parameter kind through one call', async () => {
      const args = {
        t: 'text', i: 7, b: 9007199254740991, n: '12345678901234567890.123456789', f: 1.5, bool: true, j: { a: [1, 'x'] },
        u: '123e4567-e89b-12d3-a456-426614174000', d: '2026-11-30', ts: '2026-11-30T12:00:00.000Z', by: Buffer.from('bytes\0!').toString('base64'),
        arr: ['a', 'b c', null], c: 'green', dom: 3, p: { x: '1.5', y: '-2', label: 'here' },
      }
      const r = await call(pg.server, 'echo_all', args)
      expect(r.isError).toBeUndefined()
      const row = r.structuredContent.rows[0]
      expect(row).toEqual({ ...args, by: args.by, ts: expect.stringMatching(/^2026-11-30T12:00:00(\.0+)?\+00:00$/) })
    })

    it('keeps hostile text as data through every parameter kind (no SQL injection)', async () => {
      const evil = `'); drop table ${s}.items; --`
      const quote = `x' || (select 'pwned') || '`
      const r = await call(pg.server, 'echo_all', {
        t: evil, i: 1, b: 1, n: '1', f: 1, bool: false, j: { [evil]: evil, q: quote }, u: '123e4567-e89b-12d3-a456-426614174000',
        d: '2026-01-01', ts: '2026-01-01T00:00:00Z', by: Buffer.from(evil).toString('base64'), arr: [evil, quote, '"}{,\\'], c: 'red', dom: 1,
        p: { x: '1', y: '2', label: evil },
      })
      const row = r.structuredContent.rows[0]
      expect(row.t).toBe(evil)
      expect(row.j).toEqual({ [evil]: evil, q: quote })
      expect(Buffer.from(row.by, 'base64').toString()).toBe(evil)
      expect(row.arr).toEqual([evil, quote, '"}{,\\'])
      expect(row.p.label).toBe(evil)
      // values that the schema refuses never reach the database
      for (const bad of [{ n: `1; drop table ${s}.items` }, { c: `red'; drop table ${s}.items; --` }, { u: evil }, { d: evil }, { i: evil }])
        expect((await call(pg.server, 'echo_all', { ...row, by: row.by, ts: '2026-01-01T00:00:00Z', ...bad })).isError).toBe(true)
      // a value the schema lets through but PostgreSQL refuses is a database error, not an injection
      expect((await call(pg.server, 'add_item', { name: evil, price: '1' }, { subject: 'x', roles: [staff] })).structuredContent.name).toBe(evil)
      const { rows } = await db.query(`select count(*)::int as n from ${s}.items`)
      expect(rows[0]?.n).toBeGreaterThanOrEqual(3)
    })

    it('turns a database error into an isError result with its SQLSTATE, message and hint', async () => {
      const r = await call(pg.server, 'fail', { x: 5 })
      expect(r).toEqual({ isError: true, content: [{ type: 'text', text: 'PostgreSQL error 22023: bad x: 5\nHINT: try another x' }] })
      const dom = await call(pg.server, 'echo_all', {
        t: '', i: 1, b: 1, n: '1', f: 1, bool: false, j: null, u: '123e4567-e89b-12d3-a456-426614174000', d: '2026-01-01',
        ts: '2026-01-01T00:00:00Z', by: '', arr: [], c: 'red', dom: 0, p: { x: '1', y: '1', label: '' },
      })
      expect(dom.isError).toBe(true)
      expect(dom.content[0].text).toMatch(/^PostgreSQL error 23514: value for domain .*positive violates check constraint/)
      // the database is still fine afterwards
      expect((await call(pg.server, 'add', { a: 1 })).structuredContent).toEqual({ value: 2 })
    })

    it('calls a procedure (no structured output)', async () => {
      expect(await call(pg.server, 'touch', { name: 'apricot' })).toEqual({ content: [{ type: 'text', text: 'done' }] })
      const { rows } = await db.query(`select name from ${s}.items where id = 1`)
      expect(rows[0]?.name).toBe('apricot')
    })

    it('@authorize: hidden from and refused to callers without the role; bare @authorize wants any identity', async () => {
      const ann = { subject: 'ann', roles: [staff] }
      const bob = { subject: 'bob', roles: ['viewer'] }
      expect(await listed(pg.server)).not.toContain('add_item')
      expect(await listed(pg.server)).not.toContain('secret')
      expect(await listed(pg.server, bob)).not.toContain('add_item')
      expect(await listed(pg.server, bob)).toContain('secret')
      expect(await listed(pg.server, ann)).toEqual(expect.arrayContaining(['add_item', 'secret']))
      const refused = await rpc(pg.server, 'tools/call', { name: 'add_item', arguments: { name: 'x', price: '1' } }, bob)
      expect(refused.error).toEqual({ code: -32003, message: 'Forbidden: bob may not call tool add_item' })
      const made = await call(pg.server, 'add_item', { name: 'plum', price: '2.5' }, ann)
      expect(made.structuredContent).toEqual({ id: expect.any(Number), name: 'plum', price: '2.50' })
    })

    it('@authorize names OAuth scopes too: a token granting the scope admin may list and call', async () => {
      const scoped = { subject: 'svc', roles: [], scopes: ['admin'] }
      const unscoped = { subject: 'svc', roles: [], scopes: ['viewer'] }
      expect(await listed(pg.server, scoped)).toContain('add_item')
      expect(await listed(pg.server, unscoped)).not.toContain('add_item')
      expect((await call(pg.server, 'add_item', { name: 'fig', price: '1' }, scoped)).structuredContent).toMatchObject({ name: 'fig' })
    })
  })

for (const target of targets)
  describe(`postgres on ${target.name}: timeouts, roles, connections, live catalog`, () => {
    const s = unique('emcp_l')
    const role = unique('clerk')
    let db: Database
    let pg: PostgresTools
    const notified: string[] = []

    beforeAll(async () => {
      db = await target.open()
      await db.exec(`
        create schema ${s};
        create role ${role} nologin;
        grant usage on schema ${s} to ${role};
        create function ${s}.whoami() returns text language sql as $$ select current_user::text $$;
        comment on function ${s}.whoami is '@mcp The role the call runs as.
@authorize other, ${role}';
        create function ${s}.slow() returns integer language sql as $$ select 1 from pg_sleep(3) $$;
        comment on function ${s}.slow is '@mcp Takes three seconds.';
        create function ${s}.boom() returns integer language sql as $$ select 1 / 0 $$;
        comment on function ${s}.boom is '@mcp Divides by zero.';`)
      pg = await fromPostgres(db, { schemas: [s], setRole: true, timeoutMs: 500, listen: `${s}_reload`, onWarning: () => undefined })
      const session = newSession(undefined, outbound((m) => notified.push((m as { method?: string }).method ?? '')))
      await pg.server.dispatch({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }, session)()
    }, 120_000)
    afterAll(async () => {
      await pg?.close()
      await db?.exec(`drop schema if exists ${s} cascade; drop role if exists ${role}`).catch(() => undefined)
      await db?.close()
    })

    it('runs the call under the caller’s role with SET LOCAL ROLE, and only within its transaction', async () => {
      const r = await call(pg.server, 'whoami', {}, { subject: 'carl', roles: ['nobody', role] })
      expect(r.structuredContent).toEqual({ value: role })
      const { rows } = await db.query('select current_user::text as u')
      expect(rows[0]?.u).not.toBe(role)
    })

    it('a role the database does not know is a database error, not a crash', async () => {
      const r = await call(pg.server, 'whoami', {}, { subject: 'dan', roles: ['other'] })
      expect(r.isError).toBe(true)
      expect(r.content[0].text).toMatch(/^PostgreSQL error 22023: role "other" does not exist/)
    })

    it.skipIf(target.name === 'PGlite')('cancels a call past the statement timeout (SQLSTATE 57014)', async () => {
      // SQLSTATE 57014 says the timeout ended it (the clock would say nothing more on a loaded machine)
      const r = await call(pg.server, 'slow', {})
      expect(r).toEqual({ isError: true, content: [{ type: 'text', text: 'PostgreSQL error 57014: canceling statement due to statement timeout' }] })
    })

    it('leaks no connection: many failing calls, more than the pool holds, then a good one', async () => {
      const failures = await Promise.all(Array.from({ length: 12 }, () => call(pg.server, 'boom', {})))
      for (const f of failures) expect(f.content[0].text).toBe('PostgreSQL error 22012: division by zero')
      expect((await call(pg.server, 'whoami', {}, { subject: 'carl', roles: [role] })).structuredContent).toEqual({ value: role })
      if (target.name !== 'PGlite') {
        const { rows } = await db.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`)
        expect(rows[0]?.n).toBe(0)
      }
    })

    it('reloads on NOTIFY: new, changed and dropped routines, and tells clients the list changed', async () => {
      const before = notified.length
      const waitFor = async (f: () => boolean) => {
        for (const deadline = Date.now() + 15_000; !f() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20))
        expect(f()).toBe(true)
      }
      await db.exec(`create function ${s}.fresh() returns text language sql as $$ select 'new' $$;
        comment on function ${s}.fresh is '@mcp Just added.';
        comment on function ${s}.boom is '@mcp Divides by zero, loudly.';
        drop function ${s}.slow();
        notify ${s}_reload;`)
      await waitFor(() => pg.tools().some((t) => t.tool.name === 'fresh') && !pg.tools().some((t) => t.tool.name === 'slow'))
      expect(pg.tools().find((t) => t.tool.name === 'boom')?.tool.description).toBe('Divides by zero, loudly.')
      expect((await call(pg.server, 'fresh', {})).structuredContent).toEqual({ value: 'new' })
      expect(notified.slice(before)).toContain('notifications/tools/list_changed')
      expect(await pg.reload()).toEqual({ added: [], removed: [], changed: [] })
      await db.exec(`drop function ${s}.fresh()`)
      expect(await pg.reload()).toEqual({ added: [], removed: ['fresh'], changed: [] })
      expect((await rpc(pg.server, 'tools/call', { name: 'fresh', arguments: {} })).error.code).toBe(-32602)
    })
  })
