/**
 * `mcpServer` re-checks contracts built by hand (not by `emcp` or `runtimeTool`) for unknown
 * JSON Schema keywords, as `emcp` does; a manifest's tools keep the warnings their reader
 * gave; and `runtimeTool` takes a Standard Schema (zod) in both slots, validated by zod.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { emcp, inMemoryClient, mcpServer, runtimeTool, type AnyTool } from '../../../src/index.js'
import { fromManifest } from '../../../src/sources/manifest/index.js'

const base = runtimeTool({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' } } } })

describe('mcpServer and hand-built contracts', () => {
  it('refuses an unknown keyword in a hand-built input schema, naming the tool, the path and the nearest keyword', () => {
    const hand = { ...base, inputSchema: { type: 'object', properties: { text: { type: 'string', minLenght: 1 } }, requird: ['text'] } } as AnyTool
    expect(() => mcpServer([hand], { name: 's', version: '1' })).toThrow(
      'emcp: invalid tool list: /0/inputSchema/properties/text/minLenght tool echo: unknown JSON Schema keyword "minLenght" (did you mean "minLength"?); /0/inputSchema/requird tool echo: unknown JSON Schema keyword "requird" (did you mean "required"?)',
    )
  })

  it("refuses another library's object spliced in as a hand-built output schema", () => {
    const hand = { ...base, outputSchema: { type: 'object', kind: 'schema', expects: 'Object' } } as AnyTool
    expect(() => mcpServer([hand], { name: 's', version: '1' })).toThrow(/\/0\/outputSchema\/kind tool echo: unknown JSON Schema keyword "kind"/)
  })

  it("takes contracts made by emcp, runtimeTool (literals and zod) and a manifest's tools with warnings only", async () => {
    const zodTool = emcp({ name: 'z', description: 'Zod.', input: z.object({ a: z.string() }).meta({ 'x-ui': 'compact' }) })
    const manifest = { tools: [{ name: 'm', description: 'M.', inputSchema: { type: 'object', properties: { text: { type: 'string', minLenght: 1 } } } }] }
    const warnings: string[] = []
    const s = fromManifest(manifest as never, { m: ({ text }: { text?: string }) => text ?? '' } as never, { onWarning: (m) => warnings.push(m) })
    expect(warnings).toHaveLength(1)
    // the manifest's contract, put in a server of one's own, is not refused for what was warned about
    const server = mcpServer([base, zodTool, ...(s.tools as ReadonlyArray<AnyTool>)], { name: 's', version: '1' }).implement({ echo: () => 'e', z: ({ a }: { a: string }) => a, m: () => 'm' } as never)
    expect((await inMemoryClient(server).list()).map((t) => t.name)).toEqual(['echo', 'z', 'm'])
  })
})

describe('runtimeTool with a Standard Schema', () => {
  const tool = runtimeTool({
    name: 'count',
    description: 'Counts.',
    input: z.object({ word: z.string().min(1, 'say a word'), times: z.number().int().default(2) }),
    output: z.object({ n: z.number() }),
  })
  const client = inMemoryClient(mcpServer([tool], { name: 's', version: '1' }).implement({ count: (args) => ({ n: String(args.word).length * Number(args.times) }) }))

  it('publishes the JSON Schema zod writes and validates through zod (defaults applied, its messages)', async () => {
    const [listed] = await client.list()
    expect(listed?.inputSchema).toMatchObject({ type: 'object', properties: { word: { type: 'string', minLength: 1 }, times: { type: 'integer', default: 2 } }, required: ['word'] })
    expect((await client.callResult('count', { word: 'abc' })).structuredContent).toEqual({ n: 6 })
    const refused = await client.callResult('count', { word: '' })
    expect(refused.isError).toBe(true)
    expect(refused.content).toEqual([{ type: 'text', text: 'Invalid arguments for tool count: /word: say a word' }])
  })
})
