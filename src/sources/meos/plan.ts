/**
 * Call plans: what the C side of one MEOS tool is, read from the catalog (`meos-idl.json`)
 * beside the manifest (`meos-mcp.json`). A plan says, parameter by parameter, what the native
 * call takes (a JSON scalar, an enum by name, a serialized value and its parse function, an
 * array with its count, a hidden out-parameter) and what it gives back (a scalar, a string,
 * a serialized value and its serialize function, an out-parameter guarded by a `presence`
 * return, an array with its count, nothing). Plans are plain data: the server builds them
 * once and sends them to its worker processes, which bind the functions they name.
 *
 * @example
 * import { plansOf } from './plan.js'
 * const { plans, problems } = plansOf(manifest, catalog)
 * plans.get('temporal_num_instants') // { symbol: 'temporal_num_instants', params: [{ kind: 'serialized', … }], result: { kind: 'scalar', c: 'int' }, … }
 */
import { isObject } from '../../util/json-object.js'

// ---------------------------------------------------------------------------------------
// model

/** A C scalar as the FFI passes it. */
export type CScalar = 'int' | 'int64' | 'double' | 'bool' | 'uint8'

/** One serialized value: the C type family (`Temporal`, `Set`, …), the manifest's parse function, its aux arguments defaulted. */
export interface SerializedPlan {
  readonly kind: 'serialized'
  /** The struct the pointer points at, without qualifiers (`Temporal`, `TInstant`, `GSERIALIZED`, `Cbuffer`). */
  readonly type: string
  readonly decode: string
  readonly decodeAux: ReadonlyArray<number>
}

/** One C parameter of a tool's function, in the order the C signature has them. */
export type ParamPlan =
  | { readonly kind: 'scalar'; readonly name: string; readonly c: CScalar }
  | { readonly kind: 'string'; readonly name: string; readonly text: boolean }
  | { readonly kind: 'enum'; readonly name: string; readonly values: { readonly [name: string]: number } }
  | (SerializedPlan & { readonly name: string; readonly consumed: boolean })
  | { readonly kind: 'array'; readonly name: string; readonly element: SerializedPlan }
  /** The `int` count of the array argument `of`. */
  | { readonly kind: 'count'; readonly name: string; readonly of: string }
  /** A hidden out-parameter: a scalar, or a pointer to a new value. */
  | { readonly kind: 'out'; readonly name: string; readonly c: CScalar | 'pointer' }

/** How a value is serialized back: the function and its aux arguments defaulted. */
export interface EncodePlan {
  readonly encode: string
  readonly encodeAux: ReadonlyArray<number>
}

/** What the function gives back. */
export type ResultPlan =
  | { readonly kind: 'void' }
  | { readonly kind: 'scalar'; readonly c: CScalar }
  /** A C string: `owned` when the caller frees it (`char *`, `text *`), not when it is static (`const char *`). */
  | { readonly kind: 'string'; readonly text: boolean; readonly owned: boolean }
  /** A pointer to a value: `owned` unless it points into an argument (a `const` return). */
  | (EncodePlan & { readonly kind: 'serialized'; readonly owned: boolean })
  /** An out-parameter read when the function returns true (false: no value). */
  | { readonly kind: 'presence'; readonly out: string; readonly c: CScalar | 'pointer'; readonly element?: EncodePlan }
  /** An array of new values, its length in the out-parameter `count`. */
  | { readonly kind: 'array'; readonly count: string; readonly element: EncodePlan }

/** Everything needed to call one tool's function. */
export interface CallPlan {
  readonly tool: string
  /** The exported function the tool calls. */
  readonly symbol: string
  readonly category: string
  readonly params: ReadonlyArray<ParamPlan>
  readonly result: ResultPlan
}

/** A tool that could not be planned, and why. */
export interface PlanProblem {
  readonly tool: string
  readonly message: string
}

/** Per type family, the parse functions of each encoding (from the catalog's `typeEncodings`). */
export type Decoders = { readonly [type: string]: { readonly text?: string; readonly wkb?: string; readonly mfjson?: string } }

// ---------------------------------------------------------------------------------------
// functions

/** The plans of every manifest tool the catalog describes, by tool name, and the tools it cannot plan. */
export const plansOf = (manifest: unknown, catalog: unknown): { readonly plans: ReadonlyMap<string, CallPlan>; readonly problems: ReadonlyArray<PlanProblem> } => {
  const functions = new Map<string, unknown>()
  const list = isObject(catalog) && Array.isArray(catalog.functions) ? catalog.functions : []
  for (const f of list) if (isObject(f) && typeof f.name === 'string') functions.set(f.name, f)
  const enums = enumsOf(catalog)
  const plans = new Map<string, CallPlan>()
  const problems: PlanProblem[] = []
  const tools = isObject(manifest) && Array.isArray(manifest.tools) ? manifest.tools : []
  for (const tool of tools) {
    if (!isObject(tool) || typeof tool.name !== 'string') continue
    const fn = functions.get(tool.name)
    if (fn === undefined) {
      problems.push({ tool: tool.name, message: 'the catalog has no function of this name' })
      continue
    }
    const category = isObject(tool['x-meos']) && typeof tool['x-meos'].category === 'string' ? tool['x-meos'].category : ''
    try {
      plans.set(tool.name, planOf(tool.name, category, fn, enums))
    } catch (e) {
      problems.push({ tool: tool.name, message: e instanceof Error ? e.message : String(e) })
    }
  }
  return { plans, problems }
}

/** The parse functions of each type family and encoding, from the catalog. */
export const decodersOf = (catalog: unknown): Decoders => {
  const out: Record<string, { text?: string; wkb?: string; mfjson?: string }> = {}
  const encodings = isObject(catalog) && isObject(catalog.typeEncodings) ? catalog.typeEncodings : {}
  for (const [type, e] of Object.entries(encodings)) {
    if (!isObject(e) || !isObject(e.decoders)) continue
    const d = e.decoders
    out[type] = {
      ...(typeof d.text === 'string' ? { text: d.text } : {}),
      ...(typeof d.wkb === 'string' ? { wkb: d.wkb } : {}),
      ...(typeof d.mfjson === 'string' ? { mfjson: d.mfjson } : {}),
    }
  }
  return out
}

/** MEOS's error codes by number (`11` -> `MEOS_ERR_INVALID_ARG_TYPE`), from the catalog's `errorCode` enum. */
export const errorCodesOf = (catalog: unknown): { readonly [code: number]: string } => {
  const values = enumsOf(catalog).get('errorCode') ?? {}
  return Object.fromEntries(Object.entries(values).map(([name, code]) => [code, name]))
}

/** The C parameter types of a catalog function (for binding a parse or serialize function), or undefined when it has none of that name. */
export const signatureOf = (catalog: unknown, name: string): { readonly params: ReadonlyArray<string>; readonly result: string } | undefined => {
  const list = isObject(catalog) && Array.isArray(catalog.functions) ? catalog.functions : []
  const f = list.find((x) => isObject(x) && x.name === name)
  if (!isObject(f) || !Array.isArray(f.params) || !isObject(f.returnType)) return undefined
  return { params: f.params.map((p) => (isObject(p) && typeof p.canonical === 'string' ? p.canonical : '')), result: String(f.returnType.canonical) }
}

/** A C type's scalar, or undefined for pointers and types the FFI does not pass by value. */
export const scalarOf = (canonical: string): CScalar | undefined => {
  const c = canonical.replace(/^const\s+/, '').trim()
  if (c === 'int' || c === 'int32' || c === 'int16' || c === 'uint32' || c === 'interpType' || c === 'meosType' || c === 'DateADT') return 'int'
  if (c === 'long' || c === 'int64' || c === 'TimestampTz' || c === 'TimeOffset' || c === 'size_t') return 'int64'
  if (c === 'double' || c === 'float8') return 'double'
  if (c === 'bool') return 'bool'
  if (c === 'uint8' || c === 'uint8_t' || c === 'char') return 'uint8'
  return undefined
}

/** The struct a pointer type points at, without `const`, `struct` and stars. */
export const structOf = (canonical: string): string => canonical.replace(/\bconst\b|\bstruct\b|\*/g, '').trim()

/**
 * Whether a function consumes a pointer argument: the non-const state of an aggregate's
 * transition or final function is reused, reallocated or freed by MEOS itself, so the
 * runtime frees only what the call returns (see docs/meos.md, ownership).
 */
export const consumes = (symbol: string, canonical: string, index: number): boolean =>
  index === 0 && /_(transfn|finalfn)$/.test(symbol) && canonical.includes('*') && !/^const\b/.test(canonical)

// ---------------------------------------------------------------------------------------
// internals

type Enums = ReadonlyMap<string, { readonly [name: string]: number }>

const enumsOf = (catalog: unknown): Enums => {
  const out = new Map<string, Record<string, number>>()
  const list = isObject(catalog) && Array.isArray(catalog.enums) ? catalog.enums : []
  for (const e of list) {
    if (!isObject(e) || typeof e.name !== 'string' || !Array.isArray(e.values)) continue
    const values: Record<string, number> = {}
    for (const v of e.values) if (isObject(v) && typeof v.name === 'string' && typeof v.value === 'number') values[v.name] = v.value
    out.set(e.name, values)
  }
  return out
}

const fail = (message: string): never => {
  throw new Error(message)
}

const serializedOf = (w: { readonly [key: string]: unknown }, canonical: string): SerializedPlan => ({
  kind: 'serialized',
  type: structOf(canonical),
  decode: typeof w.decode === 'string' ? w.decode : fail(`parameter of type ${canonical} names no parse function`),
  decodeAux: auxOf(w.decode_aux),
})

const encodeOf = (w: { readonly [key: string]: unknown }): EncodePlan => ({
  encode: typeof w.encode === 'string' ? w.encode : fail('a serialized result names no serialize function'),
  encodeAux: auxOf(w.encode_aux),
})

/**
 * The defaults of a parse or serialize function's aux arguments. A `typmod` is PostgreSQL's
 * type modifier, whose "none" is -1: the catalog's 0 makes `interval_in` refuse every value
 * ("unrecognized interval typmod: 0").
 */
const auxOf = (u: unknown): ReadonlyArray<number> =>
  Array.isArray(u)
    ? u.map((a) => {
        if (isObject(a) && a.name === 'typmod') return -1
        return isObject(a) && typeof a.default === 'number' ? a.default : fail(`an aux argument has no default: ${JSON.stringify(a)}`)
      })
    : []

/** The plan of one catalog function. */
const planOf = (tool: string, category: string, fn: unknown, enums: Enums): CallPlan => {
  if (!isObject(fn) || !Array.isArray(fn.params) || !isObject(fn.wire) || !Array.isArray(fn.wire.params) || !isObject(fn.wire.result) || !isObject(fn.returnType))
    return fail('the catalog entry has no C signature and wire model')
  const wires = new Map<string, { readonly [key: string]: unknown }>()
  for (const w of fn.wire.params) if (isObject(w) && typeof w.name === 'string') wires.set(w.name, w)
  const wire = fn.wire.result
  const counts = new Map<string, string>()
  for (const w of wires.values()) if (w.kind === 'array' && typeof w.count_param === 'string') counts.set(w.count_param, String(w.name))
  const params = fn.params.map((p, index): ParamPlan => {
    const name = isObject(p) && typeof p.name === 'string' ? p.name : fail(`parameter ${index} has no name`)
    const canonical = isObject(p) && typeof p.canonical === 'string' ? p.canonical : fail(`parameter ${name} has no C type`)
    const w = wires.get(name)
    if (w === undefined) return hiddenParam(name, canonical, counts, wire)
    return paramOf(tool, name, canonical, w, index, enums)
  })
  return { tool, symbol: tool, category, params, result: resultOf(String(fn.returnType.canonical), wire) }
}

const paramOf = (tool: string, name: string, canonical: string, w: { readonly [key: string]: unknown }, index: number, enums: Enums): ParamPlan => {
  if (w.kind === 'serialized') return { ...serializedOf(w, canonical), name, consumed: consumes(tool, canonical, index) }
  if (w.kind === 'array') {
    const element = isObject(w.element) ? w.element : fail(`array parameter ${name} has no element`)
    return { kind: 'array', name, element: serializedOf(element, String(element.cType ?? canonical)) }
  }
  if (w.kind !== 'json') return fail(`parameter ${name} has a wire kind this runtime does not know: ${String(w.kind)}`)
  const base = canonical.replace(/^const\s+/, '').trim()
  const values = enums.get(base)
  if (values !== undefined) return { kind: 'enum', name, values }
  if (base === 'char *') return { kind: 'string', name, text: false }
  if (base === 'text *') return { kind: 'string', name, text: true }
  const c = scalarOf(canonical)
  return c === undefined ? fail(`parameter ${name} has a C type this runtime does not pass: ${canonical}`) : { kind: 'scalar', name, c }
}

/** A parameter the wire model hides: an array's count, an out-parameter of the result or of an array's length. */
const hiddenParam = (name: string, canonical: string, counts: ReadonlyMap<string, string>, wire: { readonly [key: string]: unknown }): ParamPlan => {
  const of = counts.get(name)
  if (of !== undefined) return { kind: 'count', name, of }
  if (wire.from_outparam === name || wire.count_outparam === name) {
    const pointee = canonical.replace(/\*\s*$/, '').trim()
    return { kind: 'out', name, c: pointee.includes('*') ? 'pointer' : (scalarOf(pointee) ?? fail(`out-parameter ${name} has a type this runtime does not read: ${canonical}`)) }
  }
  return fail(`parameter ${name} (${canonical}) is neither on the wire nor a count or out-parameter`)
}

const resultOf = (canonical: string, w: { readonly [key: string]: unknown }): ResultPlan => {
  if (w.kind === 'void') return { kind: 'void' }
  if (typeof w.from_outparam === 'string') {
    const out = w.from_outparam
    if (w.kind === 'serialized') return { kind: 'presence', out, c: 'pointer', element: encodeOf(w) }
    const pointee = String(w.out_ctype ?? '').replace(/\*\s*$/, '')
    return { kind: 'presence', out, c: scalarOf(pointee) ?? fail(`out-parameter ${out} has a type this runtime does not read: ${String(w.out_ctype)}`) }
  }
  if (w.kind === 'array') {
    const element = isObject(w.element) ? w.element : fail('an array result has no element')
    return { kind: 'array', count: typeof w.count_outparam === 'string' ? w.count_outparam : fail('an array result has no count'), element: encodeOf(element) }
  }
  if (w.kind === 'serialized') return { kind: 'serialized', ...encodeOf(w), owned: !/^const\b/.test(canonical) }
  const base = canonical.replace(/^const\s+/, '').trim()
  if (base === 'char *') return { kind: 'string', text: false, owned: !/^const\b/.test(canonical) }
  if (base === 'text *') return { kind: 'string', text: true, owned: true }
  const c = scalarOf(canonical)
  return c === undefined ? fail(`the result has a C type this runtime does not read: ${canonical}`) : { kind: 'scalar', c }
}
