import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { help, run, start, type PgIO } from '../../../src/sources/postgres/cli.js'
import { connectStdio } from '../../interop/children.js'
import { runCli } from '../../../src/cli/index.js'
import { targets, unique } from './targets.js'

const dir = mkdtempSync(join(tmpdir(), 'emcp-pg-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const file = (name: string, text: string): string => {
  mkdirSync(dirname(join(dir, name)), { recursive: true })
  writeFileSync(join(dir, name), text)
  return name
}
const io = (): PgIO & { outText: () => string; errText: () => string } => {
  let out = ''
  let err = ''
  return { out: (t) => (out += t), err: (t) => (err += t), cwd: dir, env: {}, outText: () => out, errText: () => err }
}

describe('postgres: emcp pg (run, start)', () => {
  it('prints its help, and refuses unknown options and bad values with exit code 2', async () => {
    const h = io()
    expect(await run(['--help'], h)).toBe(0)
    expect(h.outText()).toBe(help)
    const bad = io()
    expect(await run(['--bogus'], bad)).toBe(2)
    expect(bad.errText()).toBe('emcp pg: unknown option --bogus (see emcp pg --help)\n')
    const port = io()
    expect(await run(['--port', 'many'], port)).toBe(2)
    expect(port.errText()).toMatch(/--port needs a whole number/)
    const both = io()
    expect(await run(['--url', 'postgres://127.0.0.1:1/x', '--pglite', 'd'], both)).toBe(2)
  })

  it('is `emcp pg` in the command table', async () => {
    const h = io()
    expect(await runCli(['pg', '--help'], { ...h, interactive: false })).toBe(0)
    expect(h.outText()).toBe(help)
    const bad = io()
    expect(await runCli(['pg', '--bogus'], { ...bad, interactive: false })).toBe(2)
    expect(bad.errText()).toBe('emcp pg: unknown option --bogus (see emcp pg --help)\n')
  })

  it('an empty catalog is an error with exit code 1, and says why', async () => {
    const e = io()
    expect(await run([], e)).toBe(1)
    expect(e.errText()).toMatch(/no routine in schema\(s\) public and no \.sql file carries @mcp/)
  }, 180_000)

  it('runs schema files, serves tool files and routines over HTTP with bearer tokens', async () => {
    const schema = file(
      'schema.sql',
      `create table notes (id serial primary key, body text not null);
       insert into notes (body) values ('first');
       create function add_note(_body text) returns notes language sql as $$ insert into notes (body) values (_body) returning * $$;
       comment on function add_note is '@mcp Adds a note.\n@authorize writer';`,
    )
    const tool = file('all_notes.sql', `-- @mcp Every note.\nselect id, body from notes order by id`)
    const tokens = file('tokens.json', JSON.stringify({ 'w-token': { subject: 'wendy', roles: ['writer'] } }))
    const h = io()
    const running = await start(['--pglite', 'db', '--init', schema, '--sql', tool, '--http', '--port', '0', '--tokens', tokens, '--name', 'notes'], h)
    try {
      expect(h.outText()).toBe(`emcp pg: serving 2 tools at ${running.url}\n`)
      const client = new Client({ name: 'cli-test', version: '0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string), { requestInit: { headers: { authorization: 'Bearer w-token' } } }))
      expect(client.getServerVersion()?.name).toBe('notes')
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['add_note', 'all_notes'])
      expect((await client.callTool({ name: 'add_note', arguments: { body: 'second' } })).structuredContent).toEqual({ id: 2, body: 'second' })
      expect((await client.callTool({ name: 'all_notes', arguments: {} })).structuredContent).toEqual({ rows: [{ id: 1, body: 'first' }, { id: 2, body: 'second' }] })
      await client.close()
    } finally {
      await running.close()
    }
  }, 180_000)

  it('serves in tool-search mode with --search and --pin, and refuses a pinned name that is no routine', async () => {
    const schema = file(
      'search.sql',
      `create function shout_text(_text text) returns text language sql as $$ select upper(_text) $$;
       comment on function shout_text is '@mcp Turns text to upper case.';
       create function count_words(_text text) returns int language sql as $$ select array_length(regexp_split_to_array(trim(_text), '\\s+'), 1) $$;
       comment on function count_words is '@mcp Number of words in a text.';`,
    )
    const h = io()
    const running = await start(['--init', schema, '--http', '--port', '0', '--search', '--pin', 'shout_text'], h)
    try {
      const client = new Client({ name: 'cli-test', version: '0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)))
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'shout_text'])
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'how many words' } })
      expect((found.structuredContent as { tools: Array<{ name: string }> }).tools[0]?.name).toBe('count_words')
      const r = await client.callTool({ name: 'call_tool', arguments: { name: 'count_words', arguments: { text: 'one two three' } } })
      expect(r.structuredContent).toEqual({ value: 3 })
      await client.close()
    } finally {
      await running.close()
    }
    const bad = io()
    expect(await run(['--init', schema, '--search', '--pin', 'nope'], bad)).toBe(2)
    expect(bad.errText()).toMatch(/--pin names no tool: nope/)
  }, 180_000)

  it('serves over stdio, as the identity --identity names', async () => {
    const schema = file(
      'stdio.sql',
      `create function shout(_text text) returns text language sql as $$ select upper(_text) $$;
       comment on function shout is '@mcp Shouts.';
       create function whisper(_text text) returns text language sql as $$ select lower(_text) $$;
       comment on function whisper is '@mcp Whispers.\n@authorize quiet';`,
    )
    const script = fileURLToPath(new URL('./pg-cli.mjs', import.meta.url))
    const anon = await connectStdio(script, ['--init', join(dir, schema)])
    try {
      expect((await anon.client.listTools()).tools.map((t) => t.name)).toEqual(['shout'])
      expect((await anon.client.callTool({ name: 'shout', arguments: { text: 'hey' } })).structuredContent).toEqual({ value: 'HEY' })
    } finally {
      await anon.dispose()
    }
    const quiet = await connectStdio(script, ['--init', join(dir, schema), '--stdio', '--identity', 'me:quiet'])
    try {
      expect((await quiet.client.listTools()).tools.map((t) => t.name)).toEqual(['shout', 'whisper'])
      expect((await quiet.client.callTool({ name: 'whisper', arguments: { text: 'HEY' } })).structuredContent).toEqual({ value: 'hey' })
    } finally {
      await quiet.dispose()
    }
  }, 180_000)
})

for (const target of targets)
  describe(`postgres on ${target.name}: emcp pg --init and --sql`, () => {
    const s = unique('emcp_c')
    afterAll(async () => {
      if (target.name === 'PGlite') return
      const db = await target.open()
      await db.exec(`drop schema if exists ${s} cascade`).catch(() => undefined)
      await db.close()
    })

    it('runs --init scripts, never runs a --sql file at start, and leaves out (naming it) a file without MCP annotations', async () => {
      const init = file(
        `${s}/init.sql`,
        `create schema ${s};
         create table ${s}.tickets (id serial primary key, title text not null, status text not null default 'open');
         insert into ${s}.tickets (title, status) values ('printer', 'open'), ('screen', 'closed');
         create table ${s}.customers (email text primary key, name text);
         insert into ${s}.customers values ('ann@example.com', 'ann');
         create function ${s}.open_tickets() returns setof ${s}.tickets language sql stable as $$ select * from ${s}.tickets where status = 'open' order by id $$;
         comment on function ${s}.open_tickets is 'Lists the open tickets.\nHTTP GET /api/tickets/open\n@mcp';
         create function ${s}.greet(_email text, _name text) returns text language sql as $$ select 'hello ' || coalesce(_name, '?') $$;
         comment on function ${s}.greet is '@mcp_desc Greets a customer.\n_name = select name from ${s}.customers where email = {_email}';
         create function ${s}.count_tickets() returns bigint language sql stable as $$ select count(*) from ${s}.tickets $$;
         comment on function ${s}.count_tickets is 'mcp Counts every ticket.';
         create function ${s}.taxed(_amount numeric, _note text) returns table (note text, total numeric) language sql immutable as
           $$ select coalesce(_note, 'none'), _amount * 1.2 $$;
         comment on function ${s}.taxed is '@mcp_desc Adds the tax.';`,
      )
      const purge = file(`${s}/purge.sql`, `-- A maintenance script: empties the table.\ndelete from ${s}.tickets`)
      const closed = file(`${s}/delete_closed.sql`, `-- @mcp_description Deletes the closed tickets.\ndelete from ${s}.tickets where status = 'closed'`)
      const h = io()
      const running = await start([...target.flags, '--init', init, '--sql', purge, '--sql', closed, '--schema', s, '--http', '--port', '0'], h)
      try {
        expect(h.errText()).toContain(`emcp pg: ${purge}: no @mcp, @mcp_description, @mcp_desc or @mcp_name in its comments: not a tool, not served, not run`)
        const client = new Client({ name: 'cli-test', version: '0' })
        await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)))
        const tools = (await client.listTools()).tools
        expect(tools.map((t) => [t.name, t.description])).toEqual([
          ['count_tickets', 'Counts every ticket.'],
          ['greet', 'Greets a customer.'],
          ['open_tickets', 'Lists the open tickets.'],
          ['taxed', 'Adds the tax.'],
          ['delete_closed', 'Deletes the closed tickets.'],
        ])
        expect(tools.find((t) => t.name === 'greet')?.inputSchema.properties).toEqual({ email: { type: ['string', 'null'] } })
        expect((await client.callTool({ name: 'greet', arguments: { email: 'ann@example.com' } })).structuredContent).toEqual({ value: 'hello ann' })
        // null is SQL NULL; numeric takes a number or an exact decimal string; rows keep the column order
        expect((await client.callTool({ name: 'greet', arguments: { email: null } })).structuredContent).toEqual({ value: 'hello ?' })
        const taxed = async (amount: unknown) => (await client.callTool({ name: 'taxed', arguments: { amount, note: null } })).structuredContent as { rows: object[] }
        expect((await taxed(10)).rows).toEqual([{ note: 'none', total: '12.0' }])
        expect((await taxed('12345678901234567890.05')).rows).toEqual([{ note: 'none', total: '14814814681481481468.060' }])
        expect(Object.keys((await taxed(1)).rows[0] as object)).toEqual(['note', 'total'])
        expect((await client.callTool({ name: 'open_tickets', arguments: {} })).structuredContent).toEqual({ rows: [{ id: 1, title: 'printer', status: 'open' }] })
        // nothing was deleted at start: both tickets are there until the tool is called
        const count = async () => ((await client.callTool({ name: 'count_tickets', arguments: {} })).structuredContent as { value: number }).value
        expect(await count()).toBe(2)
        expect((await client.callTool({ name: 'delete_closed', arguments: {} })).content).toEqual([{ type: 'text', text: 'done' }])
        expect(await count()).toBe(1)
        await client.close()
      } finally {
        await running.close()
      }
    }, 60_000)

    it('a failing --init script stops `emcp pg` with exit code 1, naming the file and the line', async () => {
      const bad = file(`${s}/bad.sql`, `create schema ${s}_bad;\n\ninsert into ${s}_bad.nowhere\n  values (1);\n`)
      const h = io()
      expect(await runCli(['pg', ...target.flags, '--init', bad], { ...h, interactive: false })).toBe(1)
      expect(h.errText()).toMatch(new RegExp(`^emcp pg: ${bad}:3: PostgreSQL error 42P01: relation "${s}_bad\\.nowhere" does not exist\\n$`))
      if (target.name !== 'PGlite') {
        const db = await target.open()
        await db.exec(`drop schema if exists ${s}_bad cascade`)
        await db.close()
      }
    }, 60_000)
  })
