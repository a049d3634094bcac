import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fromPostgres, runScripts, ScriptError, type Database } from '../../../src/sources/postgres/index.js'
import { call, targets, unique } from './targets.js'

for (const target of targets)
  describe(`postgres on ${target.name}: setup scripts`, () => {
    const s = unique('emcp_i')
    let db: Database

    beforeAll(async () => {
      db = await target.open()
      await db.exec(`create schema ${s}`)
    }, 60_000)
    afterAll(async () => {
      await db?.exec(`drop schema if exists ${s} cascade`).catch(() => undefined)
      await db?.close()
    })

    const failure = async (text: string): Promise<ScriptError> => {
      const e = await runScripts(db, [{ path: 'init/seed.sql', text }]).then(
        () => undefined,
        (x: unknown) => x,
      )
      expect(e).toBeInstanceOf(ScriptError)
      return e as ScriptError
    }

    it('runs statement by statement, semicolons in strings, dollar quotes and BEGIN ATOMIC bodies included', async () => {
      await runScripts(db, [
        {
          path: 'schema.sql',
          text: `-- the schema
create table ${s}.notes (id int primary key, body text);
insert into ${s}.notes values (1, 'a; b'), (2, $$c; d$$);
create function ${s}.shout(t text) returns text language plpgsql as $f$ begin return upper(t) || ';'; end $f$;
create function ${s}.twice(x int) returns int language sql
begin atomic
  select case when x > 0 then x * 2 else 0 end;
end;
comment on function ${s}.shout is '@mcp Shouts; loudly.';`,
        },
      ])
      const { rows } = await db.query(`select string_agg(body, '|' order by id) as b, ${s}.twice(4) as t, ${s}.shout('x') as u from ${s}.notes`)
      expect(rows[0]).toEqual({ b: 'a; b|c; d', t: 8, u: 'X;' })
    })

    it('an error names the file and the line of its position, and stops the script there', async () => {
      const e = await failure(`-- seed
insert into ${s}.notes values (10, 'kept');

insert into ${s}.notes
  values ('not a number', 'x');
insert into ${s}.notes values (11, 'never');`)
      expect(e.message).toBe(`init/seed.sql:5: PostgreSQL error 22P02: invalid input syntax for type integer: "not a number"`)
      expect(e).toMatchObject({ path: 'init/seed.sql', line: 5, error: { sqlstate: '22P02' } })
      const { rows } = await db.query(`select array_agg(id order by id)::text as ids from ${s}.notes where id >= 10`)
      expect(rows[0]?.ids).toBe('{10}')
    })

    it('a script in begin ... commit that fails leaves nothing done, and the database usable', async () => {
      const e = await failure(`begin;\ninsert into ${s}.notes values (20, 'in a transaction');\ninsert into ${s}.notes values (20, 'again');\ncommit;`)
      expect(e).toMatchObject({ line: 3, error: { sqlstate: '23505' } })
      const { rows } = await db.query(`select count(*)::int as n from ${s}.notes where id = 20`)
      expect(rows[0]?.n).toBe(0)
    })

    it('a syntax error and an error without a position: the line of the error, else of the statement', async () => {
      expect((await failure(`select 1;\n\nselect\n  1 +\n  frm;`)).line).toBe(5)
      expect((await failure(`select 1;\nselect 2;\n\n  select 1 / 0;`)).message).toBe('init/seed.sql:4: PostgreSQL error 22012: division by zero')
      expect((await failure(`/* a comment\n with lines */ selec 1`)).line).toBe(2)
      expect((await failure(`select 1;\n\\set x 1\n`)).message).toMatch(/^init\/seed\.sql:2: PostgreSQL error 42601: syntax error at or near "\\"/)
    })

    it('fromPostgres runs its init scripts once, before it reads the catalog; a failing one is the error', async () => {
      const pg = await fromPostgres(db, {
        schemas: [s],
        onWarning: () => undefined,
        init: [{ path: 'more.sql', text: `create function ${s}.hello(_who text) returns text language sql as $$ select 'hello ' || _who $$;\ncomment on function ${s}.hello is '@mcp Greets.';` }],
      })
      expect((await call(pg.server, 'hello', { who: 'you' })).structuredContent).toEqual({ value: 'hello you' })
      await expect(fromPostgres(db, { schemas: [s], init: [{ path: 'bad.sql', text: 'select 1;\nselect nope;' }] })).rejects.toThrow(
        /^bad\.sql:2: PostgreSQL error 42703: column "nope" does not exist$/,
      )
    })
  })
