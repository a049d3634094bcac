/**
 * Reading annotated routines (src/sources/postgres/routines.ts) on each database: which become tools,
 * under what name and description, with what input and output schemas and hints, which are
 * skipped and why; and the statement each tool runs, run directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../../src/sources/postgres/index.js'
import { quoteIdent } from '../../../src/sources/postgres/database.js'
import { propertyName, readRoutines, toolName, withSuffix, type DbTool, type Found } from '../../../src/sources/postgres/routines.js'
import { targets, unique } from './targets.js'

describe('postgres routines: names', () => {
  it('prefixes and checks tool names, and says how to fix a bad one', () => {
    expect(toolName('add', { prefix: 'db.' })).toBe('db.add')
    expect(toolName('bad name', {})).toEqual({ reason: 'invalid tool name "bad name": use 1-128 of A-Z a-z 0-9 _ - . (set @mcp_name)' })
    expect(toolName('x'.repeat(129), {})).toHaveProperty('reason')
  })

  it('drops one leading underscore of a parameter, unless that makes it clash or vanish', () => {
    expect(propertyName('_a', ['_a', '_b'])).toBe('a')
    expect(propertyName('_a', ['_a', 'a'])).toBe('_a')
    expect(propertyName('_', ['_'])).toBe('_')
    expect(propertyName('__x', ['__x'])).toBe('_x')
  })

  it('appends the suffix after a blank line, when there is one', () => {
    expect(withSuffix('Add.', { descriptionSuffix: 'From db.' })).toBe('Add.\n\nFrom db.')
    expect(withSuffix('Add.', { descriptionSuffix: '' })).toBe('Add.')
  })
})

for (const target of targets)
  describe(`postgres routines on ${target.name}`, () => {
    let db: Database
    let found: Found
    const schema = unique('routines')
    const s = quoteIdent(schema)
    const tool = (name: string): DbTool => {
      const t = found.tools.find((x) => x.tool.name === name)
      if (t === undefined) throw new Error(`no tool ${name}: ${found.tools.map((x) => x.tool.name).join(', ')}`)
      return t
    }
    /** Runs a tool's statement as a call with `args` would: its `result` column, parsed. */
    const run = async (name: string, args: { readonly [key: string]: unknown }): Promise<unknown> => {
      const st = tool(name).statement
      const out = (await db.query(st.sql(new Set(Object.keys(args))), [...st.params(args)])).rows[0]?.result
      return out === undefined || out === null ? out : JSON.parse(String(out))
    }

    beforeAll(async () => {
      db = await target.open()
      await db.query(`CREATE SCHEMA ${s}`)
      const statements = [
        `CREATE FUNCTION ${s}.add(_a int4, _b int4 DEFAULT 10) RETURNS int4 LANGUAGE sql STABLE AS 'SELECT _a + _b'`,
        `COMMENT ON FUNCTION ${s}.add(int4, int4) IS '@mcp Add two numbers.'`,
        `CREATE FUNCTION ${s}.split(t text, OUT head text, OUT rest text) LANGUAGE sql IMMUTABLE AS $$SELECT split_part(t, ' ', 1), substr(t, length(split_part(t, ' ', 1)) + 2)$$`,
        `COMMENT ON FUNCTION ${s}.split(text) IS E'Split off the first word.\\n@mcp_name first_word'`,
        `CREATE FUNCTION ${s}.series(n int4) RETURNS TABLE (i int4, sq int8) LANGUAGE sql AS 'SELECT g, g::int8 * g FROM generate_series(1, n) g'`,
        `COMMENT ON FUNCTION ${s}.series(int4) IS E'Ignored prose.\\n@mcp Inline text.\\n@mcp_description Squares up to n.'`,
        `CREATE PROCEDURE ${s}.note(msg text) LANGUAGE sql AS 'SELECT 1'`,
        `COMMENT ON PROCEDURE ${s}.note(text) IS '@mcp Write a note.'`,
        `CREATE FUNCTION ${s}.poly(x anyelement) RETURNS anyelement LANGUAGE sql AS 'SELECT x'`,
        `COMMENT ON FUNCTION ${s}.poly(anyelement) IS '@mcp Echo anything.'`,
        `CREATE FUNCTION ${s}.hidden() RETURNS int4 LANGUAGE sql AS 'SELECT 1'`,
        `COMMENT ON FUNCTION ${s}.hidden() IS 'No annotation here.'`,
        `CREATE FUNCTION ${s}."bad name"() RETURNS int4 LANGUAGE sql AS 'SELECT 1'`,
        `COMMENT ON FUNCTION ${s}."bad name"() IS '@mcp'`,
      ]
      for (const q of statements) await db.query(q)
      found = await readRoutines(db, { schemas: [schema], descriptionSuffix: 'From the test schema.' })
    }, 60_000)
    afterAll(async () => {
      await db.query(`DROP SCHEMA ${s} CASCADE`)
      await db.close()
    })

    it('makes a tool of each routine whose comment carries @mcp, named by @mcp_name or the routine', () => {
      expect(found.tools.map((t) => t.tool.name).sort()).toEqual(['add', 'first_word', 'note', 'series'])
      expect(tool('first_word').source).toBe(`${schema}.split(t text, OUT head text, OUT rest text)`)
    })

    it('describes each tool by @mcp_description, else the inline @mcp text, else the prose; the suffix after', () => {
      expect(tool('series').tool.description).toBe('Squares up to n.\n\nFrom the test schema.')
      expect(tool('add').tool.description).toBe('Add two numbers.\n\nFrom the test schema.')
      expect(tool('first_word').tool.description).toBe('Split off the first word.\n\nFrom the test schema.')
    })

    it('takes the input schema from the parameters: names without their underscore, defaults not required, closed', () => {
      expect(tool('add').tool.inputSchema).toEqual({
        type: 'object',
        properties: {
          a: { type: ['integer', 'null'], minimum: -2147483648, maximum: 2147483647 },
          b: { type: ['integer', 'null'], minimum: -2147483648, maximum: 2147483647 },
        },
        required: ['a'],
        additionalProperties: false,
      })
    })

    it('takes the output schema from the result: a value, OUT parameters as members, a table as rows; none for a procedure', () => {
      expect(tool('add').tool.outputSchema).toMatchObject({ type: 'object', properties: { value: { type: ['integer', 'null'] } }, required: ['value'] })
      expect(tool('first_word').tool.outputSchema).toMatchObject({ properties: { head: { type: ['string', 'null'] }, rest: { type: ['string', 'null'] } }, required: ['head', 'rest'] })
      expect(tool('series').tool.outputSchema).toMatchObject({ properties: { rows: { type: 'array', items: { required: ['i', 'sq'] } } } })
      expect(tool('note').tool.outputSchema).toBeUndefined()
      expect(tool('note').statement.result).toBe('void')
    })

    it('hints read-only and idempotent only for functions that are not volatile', () => {
      expect(tool('add').tool.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false })
      expect(tool('first_word').tool.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false })
      expect(tool('series').tool.annotations).toEqual({ openWorldHint: false })
      expect(tool('note').tool.annotations).toEqual({ openWorldHint: false })
    })

    it('skips what cannot be served, saying why, and warns of a comment without a description', () => {
      expect(found.skipped).toEqual([
        { source: `${schema}.bad name()`, reason: 'invalid tool name "bad name": use 1-128 of A-Z a-z 0-9 _ - . (set @mcp_name)' },
        { source: `${schema}.poly(x anyelement)`, reason: 'parameter of pseudo-type anyelement cannot be given as JSON' },
      ])
      expect(found.warnings).toEqual(["bad name: no description in the comment; the routine's name is used"])
      expect(found.tools.some((t) => t.source.includes('hidden'))).toBe(false)
    })

    it('runs each statement with the arguments given, a default for those left out', async () => {
      expect(await run('add', { a: 2, b: 3 })).toEqual({ value: 5 })
      expect(await run('add', { a: 2 })).toEqual({ value: 12 })
      expect(await run('first_word', { t: 'hello big world' })).toEqual({ head: 'hello', rest: 'big world' })
      expect(await run('series', { n: 3 })).toEqual({ rows: [{ i: 1, sq: 1 }, { i: 2, sq: 4 }, { i: 3, sq: 9 }] })
      expect(await run('series', { n: 0 })).toEqual({ rows: [] })
    })

    it('gives a tool the same fingerprint when read again, and another once its routine changes', async () => {
      const again = await readRoutines(db, { schemas: [schema], descriptionSuffix: 'From the test schema.' })
      expect(again.tools.find((t) => t.tool.name === 'add')?.fingerprint).toBe(tool('add').fingerprint)
      await db.query(`COMMENT ON FUNCTION ${s}.add(int4, int4) IS '@mcp Add two integers.'`)
      const changed = await readRoutines(db, { schemas: [schema], descriptionSuffix: 'From the test schema.' })
      expect(changed.tools.find((t) => t.tool.name === 'add')?.fingerprint).not.toBe(tool('add').fingerprint)
    })
  })
