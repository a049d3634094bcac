/**
 * The databases the PostgreSQL tests run on: PGlite always; a real server when
 * EMCP_TEST_DATABASE_URL names one (.ci/run starts one and sets it). Each suite works in a
 * schema of its own, with role names of its own, so that runs never meet.
 */
import { randomBytes } from 'node:crypto'
import { newSession, type Identity, type Server } from '../../../src/index.js'
import { pglite, postgres, type Database } from '../../../src/sources/postgres/index.js'

export interface Target {
  readonly name: string
  readonly open: () => Promise<Database>
  /** `emcp pg` flags that reach this database (`--url URL`; none for an in-memory PGlite). */
  readonly flags: ReadonlyArray<string>
}

const url = process.env.EMCP_TEST_DATABASE_URL

export const targets: ReadonlyArray<Target> = [
  { name: 'PGlite', open: () => pglite(), flags: [] },
  ...(url === undefined || url === '' ? [] : [{ name: 'PostgreSQL', open: () => postgres(url, { max: 4 }), flags: ['--url', url] }]),
]

if (url === undefined || url === '')
  console.log('postgres tests: EMCP_TEST_DATABASE_URL is not set, so they run on PGlite only (.ci/run starts a real server and sets it)')

/** A fresh name for a schema or role. */
export const unique = (base: string): string => `${base}_${randomBytes(4).toString('hex')}`

/** One JSON-RPC request through the dispatcher, as a caller with `identity`; the parsed answer. */
export const rpc = async (server: Server, method: string, params: object, identity?: Identity): Promise<{ result?: any; error?: any }> => {
  const session = newSession()
  session.identity = identity
  const out = await server.dispatch({ jsonrpc: '2.0', id: 1, method, params }, session)()
  if (out._tag === 'None') throw new Error('no answer')
  return JSON.parse(JSON.stringify(out.value)) as { result?: any; error?: any }
}

/** `tools/call`, returning the result. */
export const call = async (server: Server, name: string, args: object, identity?: Identity): Promise<any> => {
  const r = await rpc(server, 'tools/call', { name, arguments: args }, identity)
  if (r.error !== undefined) throw new Error(`${r.error.code}: ${r.error.message}`)
  return r.result
}

/** The tool names a caller sees. */
export const listed = async (server: Server, identity?: Identity): Promise<string[]> =>
  ((await rpc(server, 'tools/list', {}, identity)).result.tools as { name: string }[]).map((t) => t.name)
