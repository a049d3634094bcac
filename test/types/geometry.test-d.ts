/**
 * Type tests of the geometry codecs (src/codecs/geometry.ts): each decodes to a `Geometry` and
 * encodes from one, so a contract that uses one types its handler with it.
 */
import type * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import * as io from 'io-ts'
import { expectAssignable, expectError, expectType } from 'tsd'
import { emcp, mcpServer } from 'emcp'
import { fromWkt, geometryMfJson, geometryWkbHex, geometryWkt, toWkt, type Geometry } from 'emcp/geometry'

expectType<t.Type<Geometry, string, unknown>>(geometryWkt)
expectType<t.Type<Geometry, string, unknown>>(geometryMfJson)
expectType<t.Type<Geometry, string, unknown>>(geometryWkbHex)
expectType<E.Either<string, Geometry>>(fromWkt('POINT (1 2)'))
expectType<string>(toWkt({ type: 'Point', coordinates: [1, 2] }))
expectError(toWkt({ type: 'Point', coordinates: [1, 2, 3] }))
expectError(toWkt({ type: 'Circle', coordinates: [1, 2] }))

const centroid = emcp({ name: 'centroid', input: io.type({ shape: geometryWkt }), output: io.type({ result: geometryWkbHex }) })
mcpServer([centroid], { name: 'g', version: '1' }).implement({
  centroid: ({ shape }) => {
    expectType<Geometry>(shape)
    return { result: shape }
  },
})
// the result must be a geometry, not its text
expectError(mcpServer([centroid], { name: 'g', version: '1' }).implement({ centroid: () => ({ result: 'POINT (1 2)' }) }))
expectAssignable<Geometry>({ type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [0, 1], [0, 0]]]] })
