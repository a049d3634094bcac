/**
 * A raw shape of plain zod types in a runtime that refuses code made from strings (as an
 * edge isolate does while it serves requests): the built package, in a Node process run with
 * --disallow-code-generation-from-strings, answers every call exactly as the same server in a
 * process that allows it (the quick check's copy is then made by its loop: quick.ts).
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { root } from './children.js'

const bundle = pathToFileURL(join(root, 'dist', 'bundle', 'index.js')).href
const zod = pathToFileURL(join(root, 'node_modules', 'zod', 'index.js')).href

// the server, and the wire texts it answers: valid, a wrong type, 1e400 (Infinity), an unknown key, an optional key, a result zod refuses
const script = `
import { emcp, mcpServer, newSession } from '${bundle}'
import * as z from '${zod}'
let evalWorks = true
try { new Function('return 1') } catch { evalWorks = false }
const add = emcp({ name: 'add', input: { a: z.number(), b: z.number(), note: z.string().optional() }, output: { sum: z.number() } })
const s = mcpServer([add], { name: 's', version: '1' }).implement({ add: ({ a, b, note }) => ({ sum: note === 'nan' ? NaN : a + b }) })
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} }
const args = ['{"a":1,"b":2}', '{"b":2,"a":1,"note":"x"}', '{"a":"1","b":2}', '{"a":1e400,"b":2}', '{"a":1,"b":2,"c":3}', '{"a":1,"b":2,"note":"nan"}', '{"a":1,"b":2,"note":3}']
const answers = []
for (const [i, a] of args.entries()) {
  const text = '{"jsonrpc":"2.0","id":' + i + ',"method":"tools/call","params":{"name":"add","arguments":' + a + ',"_meta":' + JSON.stringify(meta) + '}}'
  answers.push(JSON.parse((await s.dispatchText(text, newSession('2026-07-28'))()).value).result)
}
console.log(JSON.stringify({ evalWorks, answers }))
`

const run = (flags: ReadonlyArray<string>): { evalWorks: boolean; answers: ReadonlyArray<{ isError?: boolean; structuredContent?: unknown; content: unknown }> } =>
  JSON.parse(execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 30_000 }))

describe('a shape of plain zod types where code from strings is refused', () => {
  it('answers as where it is allowed: the same results, the same refusals with zod\'s messages', () => {
    const refused = run(['--disallow-code-generation-from-strings'])
    const allowed = run([])
    expect(refused.evalWorks).toBe(false)
    expect(allowed.evalWorks).toBe(true)
    expect(refused.answers).toStrictEqual(allowed.answers)
    const [ok, optional, wrong, infinite, extra, nan, badNote] = refused.answers
    expect(ok?.structuredContent).toStrictEqual({ sum: 3 })
    expect(optional?.structuredContent).toStrictEqual({ sum: 3 })
    expect(JSON.stringify(wrong?.content)).toContain('/a: Invalid input: expected number, received string')
    expect(JSON.stringify(infinite?.content)).toContain('/a: Invalid input: expected number, received Infinity')
    expect(JSON.stringify(extra?.content)).toContain('/c: is not a known property')
    expect(nan?.isError).toBe(true)
    expect(JSON.stringify(nan?.content)).toContain('/sum: Invalid input: expected number, received NaN')
    expect(JSON.stringify(badNote?.content)).toContain('/note: Invalid input: expected string, received number')
  })
})
