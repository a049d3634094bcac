/**
 * One MEOS call, in the worker: decode each argument (the parse function the value asks
 * for, see forms.ts), call the function, encode what it gives back, and free every pointer
 * exactly once. Ownership (docs/meos.md): every decoded argument and every returned pointer
 * is the runtime's and is freed when the call ends, each address once (a function may return
 * its argument, or a pointer into it); a `const` return points into an argument and is never
 * freed on its own; the state of an aggregate's transition or final function (`*_transfn`,
 * `*_finalfn`) is consumed by MEOS (returned, reallocated or freed by it), so only the
 * result is freed. An error MEOS reports through its handler is an `error` outcome.
 *
 * @example
 * import { invoke } from './invoke.js'
 * invoke(meos, plans.get('temporal_num_instants'), { temp: '{t@2000-01-01, f@2000-01-03}' }, decoders)
 * // { kind: 'value', value: 2 }
 */
import { encodingsOf, parserFor } from './forms.js'
import type { Meos, MeosError, Pointer } from './ffi.js'
import type { CallPlan, CScalar, Decoders, EncodePlan, ParamPlan, SerializedPlan } from './plan.js'

// ---------------------------------------------------------------------------------------
// model

/** What a call gave: a JSON value, no value (a `presence` out-parameter not set, a NULL result), nothing (void), or an error. */
export type Outcome =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'none' }
  | { readonly kind: 'void' }
  | { readonly kind: 'error'; readonly message: string; readonly code?: number }

/** How a worker decodes: from the value (universal), or always with the manifest's parser. */
export interface InvokeOptions {
  readonly decoders: Decoders
  readonly universal: boolean
}

// ---------------------------------------------------------------------------------------
// functions

/** Runs one call of `plan` with JSON arguments; never throws for bad input. */
export const invoke = (meos: Meos, plan: CallPlan, args: { readonly [name: string]: unknown }, options: InvokeOptions): Outcome => {
  const owned = new Map<bigint, Pointer>()
  const keep = (p: Pointer): Pointer => {
    if (p !== null) owned.set(meos.address(p), p)
    return p
  }
  meos.takeError()
  try {
    const c: unknown[] = []
    const outs = new Map<string, unknown[]>()
    for (const p of plan.params) {
      const arg = argumentOf(meos, plan, p, args, options, keep, outs)
      if (isFailure(arg)) return arg
      c.push(arg.value)
    }
    const fn = meos.bind(plan.symbol, resultType(plan), plan.params.map(paramType))
    if (fn === undefined) return { kind: 'error', message: `libmeos does not export ${plan.symbol}` }
    const returned = fn(...c)
    const error = meos.takeError()
    if (error !== undefined) return meosFailure(`${plan.symbol}: `, error)
    return resultOf(meos, plan, returned, outs, keep)
  } finally {
    for (const p of owned.values()) meos.free(p)
  }
}

// ---------------------------------------------------------------------------------------
// internals

type Failure = Extract<Outcome, { kind: 'error' }>
const isFailure = (u: unknown): u is Failure => typeof u === 'object' && u !== null && (u as Failure).kind === 'error'
const failure = (message: string): Failure => ({ kind: 'error', message })
const meosFailure = (prefix: string, e: MeosError): Failure => ({ kind: 'error', message: `${prefix}${e.message}`, code: e.code })

const paramType = (p: ParamPlan) => {
  switch (p.kind) {
    case 'scalar':
      return p.c
    case 'enum':
    case 'count':
      return 'int' as const
    case 'string':
      return p.text ? ('pointer' as const) : ('string' as const)
    case 'serialized':
      return 'pointer' as const
    case 'array':
      return 'pointers' as const
    case 'out':
      return { out: p.c }
  }
}

const resultType = (plan: CallPlan) => {
  const r = plan.result
  if (r.kind === 'void') return 'void' as const
  if (r.kind === 'scalar') return r.c
  if (r.kind === 'presence') return 'bool' as const
  return 'pointer' as const
}

/** One C argument from the JSON arguments, or a failure naming the argument. */
const argumentOf = (
  meos: Meos,
  plan: CallPlan,
  p: ParamPlan,
  args: { readonly [name: string]: unknown },
  options: InvokeOptions,
  keep: (p: Pointer) => Pointer,
  outs: Map<string, unknown[]>,
): { readonly value: unknown } | Failure => {
  const v = args[p.name]
  switch (p.kind) {
    case 'scalar':
      return scalarArgument(p.name, p.c, v)
    case 'string':
      if (typeof v !== 'string') return failure(`argument ${p.name}: must be a string`)
      if (v.includes('\0')) return failure(`argument ${p.name}: must not contain a NUL character`)
      return { value: p.text ? keep(meos.text(v)) : v }
    case 'enum': {
      const n = typeof v === 'string' && Object.hasOwn(p.values, v) ? p.values[v] : undefined
      return n === undefined ? failure(`argument ${p.name}: must be one of ${Object.keys(p.values).join(', ')}`) : { value: n }
    }
    case 'serialized': {
      const d = decodeValue(meos, p.name, p, v, options)
      if (isFailure(d)) return d
      // a consumed state is MEOS's from now on: the runtime frees only the result
      return { value: p.consumed ? d : keep(d) }
    }
    case 'array':
      return arrayArgument(meos, p.name, p.element, v, options, keep)
    case 'count': {
      const of = args[p.of]
      return { value: Array.isArray(of) ? of.length : 0 }
    }
    case 'out': {
      const holder: unknown[] = [p.c === 'pointer' ? null : p.c === 'bool' ? false : 0]
      outs.set(p.name, holder)
      return { value: holder }
    }
  }
}

const int32 = 2147483647

/** `a Set`, `an Interval`. */
const article = (type: string): string => `${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type}`

const scalarArgument = (name: string, c: CScalar, v: unknown): { readonly value: unknown } | Failure => {
  if (c === 'bool') return typeof v === 'boolean' ? { value: v } : failure(`argument ${name}: must be true or false`)
  if (typeof v !== 'number' || !Number.isFinite(v)) return failure(`argument ${name}: must be a finite number`)
  if (c === 'double') return { value: v }
  if (!Number.isInteger(v)) return failure(`argument ${name}: must be a whole number`)
  if (c === 'int' && Math.abs(v) > int32) return failure(`argument ${name}: must be a 32-bit integer (from -2147483648 to 2147483647)`)
  if (c === 'uint8' && (v < 0 || v > 255)) return failure(`argument ${name}: must be from 0 to 255`)
  if (c === 'int64' && !Number.isSafeInteger(v)) return failure(`argument ${name}: must be a safe integer`)
  return { value: v }
}

/** Decodes a serialized value with the parser its form asks for; a failure names the argument and the encodings accepted. */
const decodeValue = (meos: Meos, name: string, plan: SerializedPlan, v: unknown, options: InvokeOptions): Pointer | Failure => {
  const accepted = encodingsOf(plan.type, options.decoders).join(', ')
  if (typeof v !== 'string') return failure(`argument ${name}: must be ${article(plan.type)} serialized as a string (${accepted})`)
  if (v.includes('\0')) return failure(`argument ${name}: must not contain a NUL character`)
  const choice = parserFor(plan, v, options.decoders, options.universal)
  if ('refused' in choice) return failure(`argument ${name}: not ${article(plan.type)} in any encoding accepted (${accepted}): ${choice.refused}`)
  const parse = meos.bind(choice.parser, 'pointer', ['string', ...choice.aux.map(() => 'int' as const)])
  if (parse === undefined) return failure(`argument ${name}: libmeos does not export ${choice.parser}, the parser of this value`)
  meos.takeError()
  const p = parse(v, ...choice.aux)
  const error = meos.takeError()
  if (error !== undefined || p === null) {
    if (p !== null) meos.free(p)
    const why = error?.message ?? `${choice.parser} gave no value`
    return { kind: 'error', message: `argument ${name}: not ${article(plan.type)} in any encoding accepted (${accepted}); ${choice.parser} says: ${why}`, ...(error === undefined ? {} : { code: error.code }) }
  }
  return p
}

/** Elements at most in one array argument: a bound on the memory one call may ask for. */
const maxElements = 100_000

const arrayArgument = (meos: Meos, name: string, element: SerializedPlan, v: unknown, options: InvokeOptions, keep: (p: Pointer) => Pointer): { readonly value: unknown } | Failure => {
  if (!Array.isArray(v)) return failure(`argument ${name}: must be an array of ${element.type} values`)
  if (v.length > maxElements) return failure(`argument ${name}: at most ${maxElements} elements (this array has ${v.length})`)
  const pointers: Pointer[] = []
  for (const [i, e] of v.entries()) {
    const d = decodeValue(meos, `${name}[${i}]`, element, e, options)
    if (isFailure(d)) return d
    pointers.push(keep(d))
  }
  return { value: pointers }
}

/** Serializes a value MEOS gave back; the C string is freed. */
const encodeValue = (meos: Meos, plan: EncodePlan, p: Pointer): string | Failure => {
  const encode = meos.bind(plan.encode, 'pointer', ['pointer', ...plan.encodeAux.map(() => 'int' as const)])
  if (encode === undefined) return failure(`libmeos does not export ${plan.encode}, the serializer of the result`)
  const s = encode(p, ...plan.encodeAux)
  const error = meos.takeError()
  if (error !== undefined || s === null) {
    if (s !== null) meos.free(s)
    return error === undefined ? failure(`${plan.encode} gave no text`) : meosFailure(`${plan.encode}: `, error)
  }
  return meos.string(s, true)
}

const outcomeOf = (r: string | Failure): Outcome => (isFailure(r) ? r : { kind: 'value', value: r })

const scalarResult = (c: CScalar, v: unknown): Outcome => {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? { kind: 'value', value: Number(v) } : { kind: 'value', value: v.toString() }
  if (typeof v === 'number' && !Number.isFinite(v)) return failure(`the result is ${String(v)}, which JSON cannot carry`)
  return { kind: 'value', value: c === 'bool' ? Boolean(v) : v }
}

/** The outcome of what the function returned; returned pointers join the owned set, so each is freed once. */
const resultOf = (meos: Meos, plan: CallPlan, returned: unknown, outs: ReadonlyMap<string, unknown[]>, keep: (p: Pointer) => Pointer): Outcome => {
  const r = plan.result
  switch (r.kind) {
    case 'void':
      return { kind: 'void' }
    case 'scalar':
      return scalarResult(r.c, returned)
    case 'string':
      if (returned === null) return { kind: 'none' }
      if (!r.text) return { kind: 'value', value: meos.string(returned, r.owned) }
      return { kind: 'value', value: meos.textString(keep(returned)) }
    case 'serialized': {
      if (returned === null) return { kind: 'none' }
      // a const return points into an argument: freed with it, never on its own
      if (r.owned) keep(returned)
      return outcomeOf(encodeValue(meos, r, returned))
    }
    case 'presence': {
      if (returned !== true) return { kind: 'none' }
      const v = outs.get(r.out)?.[0]
      if (r.c !== 'pointer') return scalarResult(r.c, v)
      if (v === null || v === undefined || r.element === undefined) return { kind: 'none' }
      return outcomeOf(encodeValue(meos, r.element, keep(v)))
    }
    case 'array': {
      if (returned === null) return { kind: 'none' }
      keep(returned)
      const n = Number(outs.get(r.count)?.[0] ?? 0)
      const values: string[] = []
      // every element is a copy the caller owns: each is kept (freed) before any is encoded
      const elements = meos.pointers(returned, n).map(keep)
      for (const e of elements) {
        const s = encodeValue(meos, r.element, e)
        if (isFailure(s)) return s
        values.push(s)
      }
      return { kind: 'value', value: values }
    }
  }
}
