/**
 * `emcp/fetch` bundled as a user bundles it for a runtime without Node (esbuild, platform
 * `neutral`, every dependency inlined): no module of the bundle imports a Node module, and
 * the bundle, run by Node, keeps every feature: a 2020-12 tool's schema is checked (Ajv, a
 * static import the bundler followed), and with code generation from strings forbidden, as
 * workerd forbids it, the interpreting validator checks it instead, with the same answers.
 */
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { bundleDir, bundleFor, type Bundle } from '../support/fetch-bundle.js'

/** A 2026-07-28 tools/call of the 2020-12 tool, as a client sends it. */
const call = (id: number, args: object): Request =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'json_schema_2020_12_tool' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'json_schema_2020_12_tool', arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
    }),
  })

/** The arguments each check sends, and what the answer's text must say. */
const cases = [
  { args: { name: 'Ada', email: 'ada@example.com', address: { city: 'London' } }, error: false, text: /called with/ },
  { args: { name: 'Ada', email: 'ada@example.com', extra: 1 }, error: true, text: /\/extra: is not allowed/ },
  { args: { name: 'Ada', email: 'ada@example.com', address: { city: 7 } }, error: true, text: /\/address\/city: must be string/ },
  { args: { name: 'Ada', contactMethod: 'phone' }, error: true, text: /\/phone: is required/ },
] as const

/** Runs the cases through a bundle's handler in a Node child process with `flags`; the answers' results, in order. */
const inChild = async (file: string, flags: ReadonlyArray<string>): Promise<any[]> => {
  const script = join(bundleDir, 'fetch-check.mjs')
  writeFileSync(
    script,
    `const { handler } = await import(${JSON.stringify(pathToFileURL(file).href)})
const cases = JSON.parse(process.argv[2])
const out = []
for (const [i, c] of cases.entries()) out.push((await (await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'json_schema_2020_12_tool' }, body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'json_schema_2020_12_tool', arguments: c.args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }) }))).json()).result)
console.log(JSON.stringify(out))
`,
  )
  const { stdout } = await promisify(execFile)(process.execPath, [...flags, script, JSON.stringify(cases)], { timeout: 30_000 })
  return JSON.parse(stdout) as any[]
}

let bundle: Bundle

beforeAll(async () => {
  bundle = await bundleFor('fetch-entry', 'test/transport/fetch-entry.ts')
})

describe('emcp/fetch bundled for a runtime without Node', () => {
  it('imports no Node module, statically or dynamically, anywhere in the bundle', () => {
    expect(bundle.nodeImports).toEqual([])
    expect(bundle.bytes).toBeGreaterThan(0)
  })

  it('passes a 2020-12 tool, bundled and run by Node (Ajv, statically imported)', async () => {
    const { handler } = (await import(pathToFileURL(bundle.file).href)) as { handler: (r: Request) => Promise<Response> }
    for (const [i, c] of cases.entries()) {
      const res = await handler(call(i, c.args))
      expect(res.status).toBe(200)
      const { result } = (await res.json()) as { result: { isError?: boolean; content: [{ text: string }] } }
      expect(result.isError === true, JSON.stringify(c.args)).toBe(c.error)
      expect(result.content[0].text).toMatch(c.text)
    }
  })

  it("hands a task's handler to the host's ctx.waitUntil (a worker's third argument), which settles once the task is done", async () => {
    const { handler } = (await import(pathToFileURL(bundle.file).href)) as { handler: (r: Request, env?: unknown, ctx?: unknown) => Promise<Response> }
    const kept: Promise<unknown>[] = []
    const ctx = { waitUntil: (work: Promise<unknown>) => void kept.push(work) }
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } }
    const post = (id: number, method: string, params: object, name: string) =>
      handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
        }),
        {},
        ctx,
      ).then((r) => r.json() as Promise<{ result: { resultType: string; taskId: string; status: string } }>)
    const created = (await post(1, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0.2 } }, 'slow_compute')).result
    expect(created).toMatchObject({ resultType: 'task', status: 'working' })
    expect(kept.length).toBeGreaterThan(0)
    // the host waits on this after the answer went out; once it settles, the task is done
    await Promise.all(kept)
    expect((await post(2, 'tasks/get', { taskId: created.taskId }, created.taskId)).result).toMatchObject({ taskId: created.taskId, status: 'completed' })
  })

  it('passes the same tool where code generation from strings is forbidden (as on workerd): the interpreting validator', async () => {
    const results = await inChild(bundle.file, ['--disallow-code-generation-from-strings'])
    expect(results).toHaveLength(cases.length)
    for (const [i, c] of cases.entries()) {
      expect(results[i].isError === true, JSON.stringify(c.args)).toBe(c.error)
      expect(results[i].content[0].text).toMatch(c.text)
    }
  })
})
