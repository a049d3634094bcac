import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fromPostgres, splitSqlFile, type Database, type PostgresTools } from '../../../src/sources/postgres/index.js'
import { call, targets, unique } from './targets.js'

describe('postgres: splitSqlFile', () => {
  it('takes every -- or /* */ comment (as NpgsqlRest does), then the statements without comments or semicolons', () => {
    expect(splitSqlFile('-- Finds.\n-- @mcp\n\nselect 1;\n')).toEqual({ comment: ' Finds.\n @mcp', statement: 'select 1', statements: ['select 1'] })
    expect(splitSqlFile('/*\n * Finds.\n * @mcp\n */\nselect $1::int')).toEqual({ comment: '\n Finds.\n @mcp\n ', statement: 'select $1::int', statements: ['select $1::int'] })
    expect(splitSqlFile('select 1 -- @mcp')).toEqual({ comment: ' @mcp', statement: 'select 1', statements: ['select 1'] })
    expect(splitSqlFile(`select '-- not a comment; nor this' as a; -- @mcp_desc Two.\nselect $$ /* no */ $$`)).toEqual({
      comment: ' @mcp_desc Two.',
      statement: `select '-- not a comment; nor this' as a`,
      statements: [`select '-- not a comment; nor this' as a`, 'select $$ /* no */ $$'],
    })
  })
})

for (const target of targets)
  describe(`postgres on ${target.name}: .sql files`, () => {
    const s = unique('emcp_f')
    let db: Database
    let pg: PostgresTools
    const warnings: string[] = []

    beforeAll(async () => {
      db = await target.open()
      await db.exec(`create schema ${s};
        create table ${s}.products (id serial primary key, name text not null, price numeric(8,2) not null, tags text[] not null default '{}');
        insert into ${s}.products (name, price, tags) values ('tea', 3.20, '{hot}'), ('teapot', 25.00, '{}'), ('coffee', 4.10, '{hot,strong}');
        create function ${s}.anchor() returns int language sql as $$ select 1 $$;
        comment on function ${s}.anchor is '@mcp Keeps the catalog non-empty.';`)
      pg = await fromPostgres(db, {
        schemas: [s],
        prefix: 'shop.',
        descriptionSuffix: '(test shop)',
        onWarning: (w) => warnings.push(w),
        sqlFiles: [
          {
            path: 'queries/find_products.sql',
            text: `-- Products whose name contains the text, cheapest first.\n-- @mcp\n-- @param text what to look for\n-- @param max_price the highest price\nselect id, name, price, tags from ${s}.products where name ilike '%' || $1 || '%' and price <= $2 order by price;\n`,
          },
          { path: 'tagged.sql', text: `/* @mcp\n   @mcp_name by_tags\n   @mcp_desc Products that carry all the tags. */\nselect name from ${s}.products where tags @> $1 order by name` },
          { path: 'rename.sql', text: `-- @mcp Renames a product.\nupdate ${s}.products set name = $2 where id = $1 returning id, name` },
          { path: 'nudge.sql', text: `-- @mcp Raises every price by a cent.\nupdate ${s}.products set price = price + 0.01` },
          { path: 'plain.sql', text: `-- not a tool\nselect 1` },
          { path: 'broken.sql', text: `-- @mcp Broken.\nselect frm nowhere` },
        ],
      })
    }, 120_000)
    afterAll(async () => {
      await db?.exec(`drop schema if exists ${s} cascade`).catch(() => undefined)
      await db?.close()
    })

    it('serves files whose leading comment carries @mcp, with the prefix and the suffix', () => {
      expect(pg.tools().map((t) => t.tool.name).sort()).toEqual(['shop.anchor', 'shop.by_tags', 'shop.find_products', 'shop.nudge', 'shop.rename'])
      const find = pg.tools().find((t) => t.tool.name === 'shop.find_products')?.tool
      expect(find?.description).toBe('Products whose name contains the text, cheapest first.\n\n(test shop)')
      expect(find?.inputSchema).toMatchObject({
        properties: {
          text: { type: ['string', 'null'], description: 'what to look for' },
          max_price: { type: ['string', 'number', 'null'], description: 'the highest price' },
        },
        required: ['text', 'max_price'],
      })
      expect(warnings).toContain(
        'plain.sql: no @mcp, @mcp_description, @mcp_desc or @mcp_name in its comments: not a tool, not served, not run (a setup script goes to --init)',
      )
      expect(pg.skipped()).toEqual([{ source: 'broken.sql', reason: expect.stringMatching(/^PostgreSQL cannot prepare its statement/) }])
    })

    it('runs a query with its parameters: typed rows', async () => {
      const r = await call(pg.server, 'shop.find_products', { text: 'tea', max_price: '10' })
      expect(r.structuredContent).toEqual({ rows: [{ id: 1, name: 'tea', price: '3.20', tags: ['hot'] }] })
      const tagged = await call(pg.server, 'shop.by_tags', { arg1: ['hot', 'strong'] })
      expect(tagged.structuredContent).toEqual({ rows: [{ name: 'coffee' }] })
    })

    it('keeps hostile arguments as data', async () => {
      const evil = `%' or 1=1; drop table ${s}.products; --`
      expect((await call(pg.server, 'shop.find_products', { text: evil, max_price: '100' })).structuredContent).toEqual({ rows: [] })
      expect((await call(pg.server, 'shop.by_tags', { arg1: [evil, '"}{,\\'] })).structuredContent).toEqual({ rows: [] })
      const r = await call(pg.server, 'shop.rename', { arg1: 2, arg2: evil })
      expect(r.structuredContent).toEqual({ rows: [{ id: 2, name: evil }] })
      const { rows } = await db.query(`select count(*)::int as n from ${s}.products`)
      expect(rows[0]?.n).toBe(3)
    })

    it('a statement without rows gives no structured output; describing it changed nothing', async () => {
      const { rows } = await db.query(`select price::text as p from ${s}.products where id = 1`)
      expect(rows[0]?.p).toBe('3.20')
      expect(await call(pg.server, 'shop.nudge', {})).toEqual({ content: [{ type: 'text', text: 'done' }] })
      const after = await db.query(`select price::text as p from ${s}.products where id = 1`)
      expect(after.rows[0]?.p).toBe('3.21')
    })
  })
