/**
 * One argument, several encodings: `geometryAny` (and any `anyEncoding` codec) takes a value
 * in whichever accepted encoding the client sends, recognised by form, and a value in none
 * of them is an isError result naming the argument and the encodings accepted.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { anyEncoding, emcp, inMemoryClient, mcpServer, wireCodec, wireNameOf } from '../../src/index.js'
import { geometryAny, geometryMfJson, geometryWkbHex, geometryWkt, toMfJson, toWkbHex, toWkt, type Geometry } from '../../src/codecs/geometry.js'
import { wired } from '../support/wired.js'

const square: Geometry = { type: 'Polygon', coordinates: [[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]] }

const kind = emcp({
  name: 'kind',
  description: 'The type and point count of a geometry, in whichever encoding it is given.',
  input: t.strict({ shape: geometryAny }),
  output: t.strict({ type: t.string, points: t.number, wkt: geometryWkt }),
})
const server = mcpServer([kind], { name: 'k', version: '1' }).implement({
  kind: ({ shape }) => ({ type: shape.type, points: JSON.stringify(shape.coordinates).split('],[').length, wkt: shape }),
})

type CallAnswer = { result: { isError?: boolean; structuredContent?: unknown; content: [{ text: string }] } }

describe('one argument, several encodings', () => {
  it('reads well-known text, MF-JSON and hex WKB of the same geometry to the same value', async () => {
    const { request } = await wired(server)
    const answers = await Promise.all(
      [toWkt(square), toMfJson(square), toWkbHex(square), toWkbHex(square).toUpperCase(), `  ${toWkt(square).toLowerCase()}`].map(
        (shape) => request('tools/call', { name: 'kind', arguments: { shape } }) as Promise<CallAnswer>,
      ),
    )
    for (const a of answers) expect(a.result.structuredContent).toEqual({ type: 'Polygon', points: 5, wkt: 'POLYGON ((0 0, 2 0, 2 2, 0 2, 0 0))' })
  })

  it('refuses a value in none of the encodings with an isError naming the argument and every accepted encoding', async () => {
    const { request } = await wired(server)
    for (const shape of ['(1 2)', '', '[1,2]', '12 34']) {
      const out = (await request('tools/call', { name: 'kind', arguments: { shape } })) as CallAnswer
      expect(out.result.isError).toBe(true)
      expect(out.result.content[0].text).toBe(
        'Invalid arguments for tool kind: /shape: is in none of the accepted encodings: well-known text, e.g. POINT (1 2); MF-JSON, e.g. {"type":"Point","coordinates":[1,2]}; hex WKB, e.g. 0101000000000000000000f03f0000000000000040',
      )
    }
  })

  it('gives the reason of the encoding whose form the value has when it does not parse', async () => {
    const { request } = await wired(server)
    const text = async (shape: string) => ((await request('tools/call', { name: 'kind', arguments: { shape } })) as CallAnswer).result.content[0].text
    expect(await text('POINT (1)')).toBe('Invalid arguments for tool kind: /shape: is not a 2D geometry in well-known text, e.g. POINT (1 2): expected a number at token 4, found ")"')
    expect(await text('{"type":"Point"}')).toContain('/shape: is not a 2D geometry as MF-JSON')
    expect(await text('0101000000000000000000f03f')).toContain('/shape: is not a 2D geometry as hex-encoded well-known binary: truncated at byte 5')
  })

  it('lists the encodings in the argument schema, and writes results with the first encoding', async () => {
    const [listed] = await inMemoryClient(server).list()
    expect(listed?.inputSchema).toEqual({
      type: 'object',
      properties: {
        shape: {
          type: 'string',
          description:
            'a 2D geometry as well-known text, MF-JSON or hex WKB; accepted: well-known text, e.g. POINT (1 2); MF-JSON, e.g. {"type":"Point","coordinates":[1,2]}; hex WKB, e.g. 0101000000000000000000f03f0000000000000040',
        },
      },
      required: ['shape'],
      additionalProperties: false,
    })
    expect(wireNameOf(geometryAny)).toBe('geometry/any')
    expect(geometryAny.encode(square)).toBe(toWkt(square))
    // the typed client encodes a Geometry argument itself
    expect(await inMemoryClient(server).call('kind', { shape: square })).toEqual({ type: 'Polygon', points: 5, wkt: square })
  })

  it('recognises each encoding by form alone: the forms do not overlap, for arbitrary geometries', () => {
    const pos = fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }))
    const geometry = fc.oneof(
      pos.map((p) => ({ type: 'Point', coordinates: p }) as Geometry),
      fc.array(pos, { minLength: 2, maxLength: 5 }).map((c) => ({ type: 'LineString', coordinates: c }) as Geometry),
    )
    fc.assert(
      fc.property(geometry, (g) => {
        for (const codec of [geometryWkt, geometryMfJson, geometryWkbHex]) {
          const decoded = geometryAny.decode(codec.encode(g))
          // compared as JSON: text encodings write -0 as 0
          expect(E.isRight(decoded) && toMfJson(decoded.right)).toBe(toMfJson(g))
        }
      }),
      { numRuns: 100 },
    )
  })

  it('is refused at definition when one of its encodings has no form to be recognised by', () => {
    const plain = wireCodec<number>({ name: 'n/dec', description: 'a decimal', is: (u): u is number => typeof u === 'number', decode: (s) => E.right(Number(s)), encode: String })
    expect(() => anyEncoding({ name: 'n/any', description: 'a number', encodings: [plain] })).toThrow('anyEncoding n/any: the codec n/dec has no form')
  })
})
