import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { dispatchOf, emcp, inMemoryClient, mcpServer, wireCodec, wireNameOf } from '../../src/index.js'
import { wired } from '../support/wired.js'

const hexInt = wireCodec<number>({
  name: 'int/hex',
  description: 'an integer in hexadecimal',
  is: (u): u is number => Number.isInteger(u),
  decode: (s) => (/^[0-9a-f]+$/i.test(s) ? E.right(parseInt(s, 16)) : E.left('not hexadecimal')),
  encode: (n) => n.toString(16),
  schema: { pattern: '^[0-9a-fA-F]+$' },
})

const double = emcp({ name: 'double', description: 'Double a hex number.', input: t.intersection([t.type({ n: hexInt }), t.partial({ note: t.string })]), output: t.type({ result: hexInt }) })

describe('wire codecs', () => {
  it('describe their wire string in the schema', () => {
    expect(double.inputSchema).toMatchObject({ properties: { n: { type: 'string', description: 'an integer in hexadecimal', pattern: '^[0-9a-fA-F]+$' } } })
    expect(wireNameOf(hexInt)).toBe('int/hex')
    expect(wireNameOf(t.string)).toBeUndefined()
  })

  it('are read by every copy of emcp in the process: the bundle (what `import "emcp"` loads) sees what the sources attached', async () => {
    // the bundle is built by `npm run build` (npm test builds first)
    const bundle = (await import(new URL('../../dist/bundle/index.js', import.meta.url).href)) as typeof import('../../src/index.js')
    expect(bundle.wireNameOf(hexInt)).toBe('int/hex')
    expect(bundle.dispatchOf(double.input, double.output)).toEqual({ arguments: { n: 'int/hex' }, result: { result: 'int/hex' } })
    expect(bundle.codecToJsonSchema(hexInt)).toMatchObject({ type: 'string', pattern: '^[0-9a-fA-F]+$' })
    expect(bundle.wireNameOf).not.toBe(wireNameOf)
  })

  it('are listed per argument and per result property as dispatch metadata', () => {
    expect(dispatchOf(double.input, double.output)).toEqual({ arguments: { n: 'int/hex' }, result: { result: 'int/hex' } })
    expect(dispatchOf(t.exact(t.partial({ m: hexInt })), undefined)).toEqual({ arguments: { m: 'int/hex' } })
    expect(dispatchOf(t.type({ s: t.string }), undefined)).toBeUndefined()
  })

  it('decode arguments for the handler and encode its result', async () => {
    const server = mcpServer([double], { name: 'd', version: '1' }).implement({ double: ({ n }) => ({ result: n * 2 }) })
    const { request } = await wired(server)
    expect(await request('tools/call', { name: 'double', arguments: { n: 'ff' } })).toMatchObject({ result: { structuredContent: { result: '1fe' } } })
    expect(await inMemoryClient(server).call('double', { n: 255 })).toEqual({ result: 510 })
  })

  it('turn a value that does not decode into a clean isError naming the argument, never a wrong result', async () => {
    let ran = false
    const server = mcpServer([double], { name: 'd', version: '1' }).implement({ double: ({ n }) => ((ran = true), { result: n * 2 }) })
    const { request } = await wired(server)
    const out = (await request('tools/call', { name: 'double', arguments: { n: 'fg' } })) as { result: { isError: boolean; content: [{ text: string }] } }
    expect(out.result.isError).toBe(true)
    expect(out.result.content[0].text).toContain('/n')
    expect(ran).toBe(false)
    const wrong = mcpServer([double], { name: 'd', version: '1' }).implement({ double: () => ({ result: 1.5 }) })
    const r = (await (await wired(wrong)).request('tools/call', { name: 'double', arguments: { n: '1' } })) as { result: { isError: boolean } }
    expect(r.result.isError).toBe(true)
  })
})
