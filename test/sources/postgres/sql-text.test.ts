import { describe, expect, it } from 'vitest'
import { lineAt, namedParams, replaceParams, scanSql, tokens } from '../../../src/sources/postgres/sql-text.js'

const kinds = (text: string) => [...tokens(text)].filter((t) => t.kind !== 'space').map((t) => [t.kind, text.slice(t.start, t.end)])

describe('postgres: SQL text', () => {
  it('tells comments, strings, dollar quotes, quoted identifiers and parameters apart', () => {
    expect(kinds(`select 'a;--b', E'it\\'s;', "x;y", $1, $tag$ ; $$ $tag$, $$;$$ -- c;\n/* a /* nested */ ; */ x$1`)).toEqual([
      ['word', 'select'],
      ['string', `'a;--b'`],
      ['other', ','],
      ['word', 'E'],
      ['string', `'it\\'s;'`],
      ['other', ','],
      ['quoted', '"x;y"'],
      ['other', ','],
      ['param', '$1'],
      ['other', ','],
      ['dollar', '$tag$ ; $$ $tag$'],
      ['other', ','],
      ['dollar', '$$;$$'],
      ['line-comment', '-- c;'],
      ['block-comment', '/* a /* nested */ ; */'],
      ['word', 'x$1'],
    ])
  })

  it('splits statements on semicolons outside strings and comments, with the line each starts on', () => {
    const { statements, comments } = scanSql(`-- head\ncreate table t (a text);\n\n insert into t values ('x;y'); /* tail */ select\n  1;\n`)
    expect(statements).toEqual([
      { source: 'create table t (a text)', code: 'create table t (a text)', line: 2 },
      { source: `insert into t values ('x;y')`, code: `insert into t values ('x;y')`, line: 4 },
      { source: 'select\n  1', code: 'select\n  1', line: 4 },
    ])
    expect(comments).toEqual([' head', ' tail '])
  })

  it('keeps a BEGIN ATOMIC function body whole, as psql does, and a transaction block in statements', () => {
    const script = `begin;\ncreate function f(x int) returns int language sql\nbegin atomic\n  select case when x > 0 then 1 else 2 end;\n  select 3;\nend;\ncommit;\nselect 1`
    expect(scanSql(script).statements.map((s) => s.line)).toEqual([1, 2, 7, 8])
    expect(scanSql(script).statements[1]?.code).toMatch(/^create function f.*select 3;\nend$/s)
  })

  it('gives the statement without its comments, so that it can be wrapped', () => {
    expect(scanSql('select 1 -- trailing\n/* x */ + 2').statements[0]).toEqual({ source: 'select 1 -- trailing\n/* x */ + 2', code: 'select 1  \n  + 2', line: 1 })
  })

  it('maps an error position (characters, 1-based) to a line', () => {
    expect(lineAt('select\n  1 +\n  x', 16)).toBe(3)
    expect(lineAt('a', 1)).toBe(1)
    expect(lineAt('é\n😀\nb', 5)).toBe(3)
  })

  it('replaces parameters only where they are parameters', () => {
    expect(replaceParams(`select $1, '$1', $2 -- $1`, (n) => `$${n}::int`)).toBe(`select $1::int, '$1', $2::int -- $1`)
  })

  it("turns NpgsqlRest's :name parameters into $n, one per name, leaving casts, := and strings alone", () => {
    expect(namedParams(`select :User_Name::text, x := 1, ':no', :age, $$ :no $$, :user_name -- :no`)).toEqual({
      code: `select $1::text, x := 1, ':no', $2, $$ :no $$, $1 -- :no`,
      names: ['User_Name', 'age'],
      positional: false,
    })
    expect(namedParams('select $1, :a')).toMatchObject({ names: ['a'], positional: true })
  })

  it('runs in linear time on hostile text (unterminated strings, comments, quotes)', () => {
    for (const bad of [`'`.repeat(200_000), '/*'.repeat(100_000), '$a'.repeat(100_000), 'E\\'.repeat(100_000), '"'.repeat(200_000)]) {
      const { statements } = scanSql(bad)
      expect(statements.length).toBeLessThanOrEqual(1)
    }
  })
})
