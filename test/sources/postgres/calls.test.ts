/**
 * How a call of a scalar function runs: in the select list of its one statement (so that
 * PostgreSQL can inline a SQL function), after the row that sets who calls, exactly once per
 * call; a scalar whose JSON reads it more than once (an array of numerics) stays a row source. Both paths:
 * the one-statement call, and the transaction of a call that sets a role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fromPostgres, type Database, type PostgresTools } from '../../../src/sources/postgres/index.js'
import { call, targets, unique } from './targets.js'

const schemaSql = (s: string) => `
create schema ${s};
create table ${s}.hits (id serial primary key, who text);

create function ${s}.bump() returns integer language sql volatile as
  $$ insert into ${s}.hits (who) values (current_setting('emcp.subject', true)); select count(*)::int from ${s}.hits $$;
comment on function ${s}.bump is '@mcp Counts its calls.';

create function ${s}.bump_all() returns numeric[] language plpgsql volatile as
  $$ begin insert into ${s}.hits (who) values ('array'); return array[(select count(*) from ${s}.hits), 0.5]; end $$;
comment on function ${s}.bump_all is '@mcp Counts its calls, as an array.';

create function ${s}.whoami(_suffix text default '') returns text language sql stable as
  $$ select coalesce(current_setting('emcp.subject', true), '<unset>') || '/' || coalesce(current_setting('emcp.roles', true), '<unset>') || _suffix $$;
comment on function ${s}.whoami is '@mcp Who calls.';

create function ${s}.twice(_n numeric) returns numeric language sql immutable as $$ select _n * 2 $$;
comment on function ${s}.twice is '@mcp Doubles, exactly.';

create function ${s}.nothing(_n integer) returns integer language sql immutable as $$ select null::integer $$;
comment on function ${s}.nothing is '@mcp Returns NULL.';
`

for (const target of targets)
  describe(`postgres on ${target.name}: a scalar function's call`, () => {
    const s = unique('emcp_k')
    let db: Database
    let pg: PostgresTools
    let withRole: PostgresTools
    const hits = async (who?: string): Promise<number> =>
      Number((await db.query(`select count(*)::int as n from ${s}.hits${who === undefined ? '' : ' where who = $1'}`, who === undefined ? [] : [who])).rows[0]?.n)

    beforeAll(async () => {
      db = await target.open()
      await db.exec(schemaSql(s))
      const me = String((await db.query('select current_user as me')).rows[0]?.me)
      pg = await fromPostgres(db, { schemas: [s], onWarning: () => undefined })
      // the same routines through the transaction path: each call sets a role (the connection's own)
      withRole = await fromPostgres(db, { schemas: [s], onWarning: () => undefined, setRole: () => me })
    }, 120_000)
    afterAll(async () => {
      await db?.exec(`drop schema if exists ${s} cascade`).catch(() => undefined)
      await db?.close()
    })

    it('calls a scalar function in the select list; an array of numerics stays a row source', () => {
      const statement = (name: string) => pg.tools().find((t) => t.tool.name === name)?.statement
      for (const name of ['bump', 'whoami', 'twice', 'nothing']) {
        expect(statement(name)?.alone?.(new Set()), name).not.toMatch(/\) AS r\(/)
        expect(statement(name)?.sql(new Set()), name).toMatch(/^SELECT \(json_build_object\('value', /)
      }
      expect(statement('bump_all')?.alone?.(new Set())).toMatch(/\) AS r\(c1\)/)
    })

    it('runs a volatile function exactly once per call, many calls at once, on both paths', async () => {
      const before = await hits()
      const answers = await Promise.all(Array.from({ length: 12 }, () => call(pg.server, 'bump', {}, { subject: 'ann', roles: [] })))
      expect(answers.every((a) => a.isError === undefined)).toBe(true)
      expect(await hits()).toBe(before + 12)
      expect(await hits('ann')).toBe(12)
      // each call saw at least its own insert
      for (const a of answers) expect(a.structuredContent.value).toBeGreaterThan(before)
      const viaRole = await call(withRole.server, 'bump', {}, { subject: 'bob', roles: ['x'] })
      expect(viaRole.structuredContent.value).toBe(before + 13)
      expect(await hits('bob')).toBe(1)
      const arrays = await Promise.all(Array.from({ length: 3 }, () => call(pg.server, 'bump_all', {})))
      for (const a of arrays) expect(a.structuredContent.value).toEqual([expect.any(String), '0.5'])
      expect(await hits('array')).toBe(3)
    })

    it('a SQL function in the select list sees who calls, set before it runs, and only in its own call', async () => {
      const who = async (tools: PostgresTools, identity?: { subject: string; roles: string[] }, suffix?: string) =>
        (await call(tools.server, 'whoami', suffix === undefined ? {} : { suffix }, identity)).structuredContent.value
      expect(await who(pg, { subject: 'ann', roles: ['a', 'b'] })).toBe('ann/a,b')
      expect(await who(pg, { subject: 'ann', roles: ['a'] }, '!')).toBe('ann/a!')
      expect(await who(withRole, { subject: 'cy', roles: ['r'] })).toBe('cy/r')
      const anonymous = await Promise.all(Array.from({ length: 12 }, () => who(pg)))
      for (const w of anonymous) expect(['<unset>/<unset>', '/']).toContain(w)
    })

    it('keeps a numeric exact and a NULL a null, on both paths', async () => {
      for (const tools of [pg, withRole]) {
        expect((await call(tools.server, 'twice', { n: '12345678901234567890.125' })).structuredContent).toEqual({ value: '24691357802469135780.250' })
        expect((await call(tools.server, 'nothing', { n: 1 })).structuredContent).toEqual({ value: null })
      }
    })
  })
