/**
 * The native side of MEOS, as one worker process holds it: libmeos opened through koffi,
 * MEOS initialised with an error handler that records the error instead of ending the
 * process, functions bound by name (undefined when the library does not export one), C
 * strings read and freed, `text` values made and read. koffi is the FFI because it installs
 * a prebuilt binary for each platform with no install script and no compiler (node-ffi-napi
 * needs node-gyp and has no release for current Node versions), calls synchronously with low
 * overhead, and takes C callbacks, which MEOS's error handler is. It is an optional peer,
 * imported only here, so that nothing else in emcp loads it.
 *
 * @example
 * import { openMeos } from './ffi.js'
 * const meos = await openMeos('/usr/local/lib/libmeos.so')
 * const tboolIn = meos.bind('tbool_in', 'pointer', ['string'])
 */
import type { CScalar } from './plan.js'

// ---------------------------------------------------------------------------------------
// model

/** A native pointer as koffi gives it (null for NULL). */
export type Pointer = unknown

/** A C type as a bound function takes or gives it. */
export type CType = CScalar | 'pointer' | 'string' | 'pointers' | { readonly out: CScalar | 'pointer' }

/** A bound C function. */
export type NativeFunction = (...args: ReadonlyArray<unknown>) => unknown

/** An error MEOS reported through its handler. */
export interface MeosError {
  readonly level: number
  readonly code: number
  readonly message: string
}

/** libmeos, initialised, in this process. */
export interface Meos {
  /** The function `name` with this signature; undefined when the library does not export it. Bound once, then cached. */
  readonly bind: (name: string, result: CType | 'void', params: ReadonlyArray<CType>) => NativeFunction | undefined
  /** True when the library exports `name`. */
  readonly has: (name: string) => boolean
  /** Frees memory MEOS allocated (MEOS allocates with malloc). */
  readonly free: (p: Pointer) => void
  /** The C string at `p`, which is then freed when `owned`. */
  readonly string: (p: Pointer, owned: boolean) => string
  /** `n` pointers from a C array of pointers. */
  readonly pointers: (p: Pointer, n: number) => ReadonlyArray<Pointer>
  /** A new `text` value (a PostgreSQL varlena) holding `s`; the caller frees it. */
  readonly text: (s: string) => Pointer
  /** The string in a `text` value. */
  readonly textString: (p: Pointer) => string
  /** The address of a pointer, to tell two pointers apart. */
  readonly address: (p: Pointer) => bigint
  /** The error MEOS reported since the last call of this (ERROR level and above), cleared as it is read. */
  readonly takeError: () => MeosError | undefined
}

/** MEOS's ERROR level (PostgreSQL's): lower levels are notices and warnings, not failures. */
export const errorLevel = 21

// ---------------------------------------------------------------------------------------
// functions

/** Opens libmeos at `path`, initialises MEOS in UTC with a recording error handler; throws a readable error when koffi or the library is missing. */
export const openMeos = async (path: string): Promise<Meos> => {
  const koffi = await importKoffi()
  let lib: ReturnType<typeof koffi.load>
  try {
    lib = koffi.load(path)
  } catch (e) {
    throw new Error(`libmeos could not be opened at ${path}: ${e instanceof Error ? e.message : String(e)} (build it with .ci/meos, see docs/meos.md)`)
  }
  const libc = koffi.load('libc.so.6')
  const free = libc.func('free', 'void', ['void *'])
  let recorded: MeosError | undefined
  const handlerType = koffi.proto('void emcp_meos_error_handler(int, int, const char *)')
  // the handler must outlive every call: registered once, for the life of the process
  const handler = koffi.register((level: number, code: number, message: string) => {
    if (level >= errorLevel && recorded === undefined) recorded = { level, code, message: String(message) }
  }, koffi.pointer(handlerType))
  lib.func('meos_initialize', 'void', [])()
  lib.func('meos_initialize_timezone', 'void', ['const char *'])('UTC')
  lib.func('meos_initialize_error_handler', 'void', [koffi.pointer(handlerType)])(handler)
  const bound = new Map<string, NativeFunction | undefined>()
  const typeOf = (c: CType | 'void'): unknown => {
    if (typeof c === 'object') return koffi.out(koffi.pointer(c.out === 'pointer' ? 'void *' : scalarType[c.out]))
    if (c === 'void') return 'void'
    if (c === 'pointer') return 'void *'
    if (c === 'string') return 'const char *'
    if (c === 'pointers') return 'void **'
    return scalarType[c]
  }
  const has = (name: string): boolean => {
    try {
      return lib.symbol(name) !== null
    } catch {
      return false
    }
  }
  const cstring2text = lib.func('cstring2text', 'void *', ['const char *'])
  const text2cstring = lib.func('text2cstring', 'void *', ['void *'])
  const string = (p: Pointer, owned: boolean): string => {
    const s = koffi.decode(p, 'char', -1) as string
    if (owned) free(p)
    return s
  }
  return {
    bind: (name, result, params) => {
      const key = `${name}(${params.map((p) => JSON.stringify(p)).join(',')})${JSON.stringify(result)}`
      if (bound.has(key)) return bound.get(key)
      const fn = has(name) ? (lib.func(name, typeOf(result) as string, params.map(typeOf) as string[]) as NativeFunction) : undefined
      bound.set(key, fn)
      return fn
    },
    has,
    free: (p) => {
      if (p !== null) free(p)
    },
    string,
    pointers: (p, n) => (n === 0 ? [] : (koffi.decode(p, 'void *', n) as ReadonlyArray<Pointer>)),
    text: (s) => cstring2text(s),
    textString: (p) => string(text2cstring(p), true),
    address: (p) => koffi.address(p),
    takeError: () => {
      const e = recorded
      recorded = undefined
      return e
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

const scalarType: { readonly [c in CScalar]: string } = { int: 'int', int64: 'int64', double: 'double', bool: 'bool', uint8: 'uint8' }

/** koffi, or an error that says how to get it (it is an optional peer of emcp). */
const importKoffi = async (): Promise<typeof import('koffi')> => {
  try {
    const m = (await import('koffi')) as { default?: typeof import('koffi') } & typeof import('koffi')
    return m.default ?? m
  } catch (e) {
    throw new Error(`emcp/meos needs koffi, an optional peer dependency: npm install koffi (${e instanceof Error ? e.message : String(e)})`)
  }
}
