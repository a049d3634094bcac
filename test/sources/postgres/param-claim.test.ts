import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { annotations, fromPostgres, type Database, type PostgresTools } from '../../../src/sources/postgres/index.js'
import type { Identity } from '../../../src/index.js'
import { rpc, targets, unique } from './targets.js'

// @param_claim: a routine's (or a .sql file's) parameter filled from the caller's token
describe('postgres: @param_claim in comments', () => {
  it('reads a parameter and a claim, or a path into nested claims; a malformed line refuses the routine', () => {
    const a = annotations('@mcp Orders.\n@param_claim _user_id sub\nparam_claim _org org, id', 'orders')
    expect([...a.claims]).toEqual([['_user_id', 'sub'], ['_org', ['org', 'id']]])
    expect(a.refusals).toEqual([])
    expect(a.description).toBe('Orders.')
    expect(annotations('@mcp\n@param_claim _user_id', 'o').refusals).toEqual([expect.stringMatching(/^@param_claim needs a parameter and a claim/)])
    expect(annotations('@mcp\n@param_claim', 'o').refusals).toHaveLength(1)
    expect(annotations(`@mcp\n@param_claim _x ${Array(9).fill('a').join(' ')}`, 'o').refusals).toHaveLength(1)
  })
})

const schemaSql = (s: string) => `
create schema ${s};
create table ${s}.orders (id serial primary key, owner text not null, org integer not null, item text not null);
insert into ${s}.orders (owner, org, item) values ('alice', 7, 'tea'), ('alice', 8, 'cake'), ('bob', 7, 'coffee');

create function ${s}.my_orders(_user_id text, _org integer, _limit integer default 10) returns setof ${s}.orders
language sql stable as $$ select * from ${s}.orders where owner = _user_id and org = _org order by id limit _limit $$;
comment on function ${s}.my_orders is 'The caller''s orders.
@mcp
@param_claim _user_id sub
@param_claim _org org id';

create function ${s}.whoami(_user_id text) returns text language sql as $$ select _user_id $$;
comment on function ${s}.whoami is '@mcp Says who the token says you are.
@param_claim _nobody sub';

create function ${s}.bad_line(_user_id text) returns text language sql as $$ select _user_id $$;
comment on function ${s}.bad_line is '@mcp A malformed claim line.
@param_claim _user_id';
`

for (const target of targets)
  describe(`postgres on ${target.name}: @param_claim`, () => {
    const s = unique('emcp_c')
    let db: Database
    let pg: PostgresTools
    const alice: Identity = { subject: 'alice', roles: [], claims: { sub: 'alice', org: { id: 7 } } }

    beforeAll(async () => {
      db = await target.open()
      await db.exec(schemaSql(s))
      pg = await fromPostgres(db, {
        schemas: [s],
        sqlFiles: [{ path: 'mine.sql', text: `-- @mcp The caller's items.\n-- @param user_id\n-- @param_claim user_id sub\nselect item from ${s}.orders where owner = $1 order by id` }],
      })
    }, 120_000)
    afterAll(async () => {
      await pg?.close()
      await db?.exec(`drop schema if exists ${s} cascade`).catch(() => undefined)
      await db?.close()
    })

    it('hides the claim-bound parameters from tools/list', async () => {
      const tools = (await rpc(pg.server, 'tools/list', {}, alice)).result.tools as { name: string; inputSchema: { properties: object; required?: string[] } }[]
      const orders = tools.find((t) => t.name === 'my_orders')
      expect(Object.keys(orders?.inputSchema.properties ?? {})).toEqual(['limit'])
      expect(orders?.inputSchema.required).toBeUndefined()
      expect(tools.find((t) => t.name === 'mine')?.inputSchema.properties).toEqual({})
    })

    it('fills them from the token on each call: a routine and a .sql file', async () => {
      const r = await rpc(pg.server, 'tools/call', { name: 'my_orders', arguments: {} }, alice)
      expect(r.result.structuredContent.rows.map((o: { item: string }) => o.item)).toEqual(['tea'])
      const bob = await rpc(pg.server, 'tools/call', { name: 'my_orders', arguments: { limit: 5 } }, { subject: 'bob', roles: [], claims: { sub: 'bob', org: { id: 7 } } })
      expect(bob.result.structuredContent.rows.map((o: { item: string }) => o.item)).toEqual(['coffee'])
      const file = await rpc(pg.server, 'tools/call', { name: 'mine', arguments: {} }, alice)
      expect(file.result.structuredContent.rows).toEqual([{ item: 'tea' }, { item: 'cake' }])
    })

    it('refuses a client-sent value, a call without a token or without the claim, and a claim of the wrong type', async () => {
      const sent = await rpc(pg.server, 'tools/call', { name: 'my_orders', arguments: { user_id: 'bob' } }, alice)
      expect(sent.result).toMatchObject({ isError: true, content: [{ text: "Invalid arguments for tool my_orders: user_id: filled from the caller's token; do not send it" }] })
      expect((await rpc(pg.server, 'tools/call', { name: 'my_orders', arguments: {} })).error).toMatchObject({ code: -32003, data: { argument: 'user_id', claim: 'sub' } })
      expect((await rpc(pg.server, 'tools/call', { name: 'my_orders', arguments: {} }, { subject: 'c', roles: [], claims: { sub: 'c' } })).error).toMatchObject({ code: -32003, data: { argument: 'org', claim: ['org', 'id'] } })
      expect((await rpc(pg.server, 'tools/call', { name: 'my_orders', arguments: {} }, { subject: 'c', roles: [], claims: { sub: 'c', org: { id: 'x' } } })).error).toMatchObject({ code: -32003, message: expect.stringMatching(/does not fit/) })
      expect((await rpc(pg.server, 'tools/call', { name: 'my_orders', arguments: {} }, { subject: 'c', roles: [], claims: { sub: null, org: { id: 7 } } })).error).toMatchObject({ code: -32003, data: { argument: 'user_id' } })
    })

    it('does not serve a routine whose @param_claim names no parameter or is malformed, and says why', () => {
      expect(pg.tools().map((t) => t.tool.name)).not.toContain('whoami')
      expect(pg.skipped()).toEqual(
        expect.arrayContaining([
          { source: `${s}.whoami(_user_id text)`, reason: '@param_claim names _nobody, which is not one of its parameters' },
          { source: `${s}.bad_line(_user_id text)`, reason: expect.stringMatching(/^@param_claim needs a parameter and a claim/) },
        ]),
      )
    })
  })
