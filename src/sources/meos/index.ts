/**
 * emcp/meos: the MEOS catalog (MobilityDB's C library of temporal and spatial types) served
 * as MCP tools, called in the real libmeos. The generated manifest gives the tools, the
 * generated catalog the C side of each call; calls run in worker processes, so that a MEOS
 * function that ends its process on bad input ends a worker, never the server. The FFI is
 * koffi, an optional peer loaded only by the workers (see ffi.ts for why koffi).
 *
 * @example
 * import { meosServer } from 'emcp/meos'
 * import { serveHttp } from 'emcp/http'
 * const meos = await meosServer({ manifest: 'meos-mcp.json', catalog: 'meos-idl.json', categories: ['accessor'] })
 * await serveHttp(meos.server, { port: 3000 })
 */
export { baseOf, encodingsOf, parserFor } from './forms.js'
export type { ParserChoice } from './forms.js'
export type { Outcome } from './invoke.js'
export { decodersOf, errorCodesOf, plansOf } from './plan.js'
export type { CallPlan, CScalar, Decoders, EncodePlan, ParamPlan, PlanProblem, ResultPlan, SerializedPlan } from './plan.js'
export { defaultWorkers, startPool } from './pool.js'
export type { Pool, PoolOptions } from './pool.js'
export { defaultTimeoutMs, meosServer } from './server.js'
export type { MeosOptions, MeosServer } from './server.js'
