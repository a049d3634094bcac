/**
 * Namespaces: a mounted server's names are prefixed with its namespace and `_` (the one
 * separator the spec's tool names, prompt names and every client's name rules all allow):
 * `charge` mounted under `billing` is `billing_charge`, at the type level and at run time.
 *
 * @example
 * import { prefixed } from './names.js'
 * prefixed('billing', 'charge') // 'billing_charge'
 * prefixed('', 'charge')        // 'charge': a part mounted whole keeps its names
 */
import type { AnyTool, Tool } from '../contract/emcp.js'

// ---------------------------------------------------------------------------------------
// model

/** What joins a namespace and a name. */
export const separator = '_'

/** The name `N` under the namespace `P` (`''`: no namespace). */
export type Prefixed<P extends string, N extends string> = P extends '' ? N : `${P}${typeof separator}${N}`

/**
 * Every tool of the union `U` renamed into the namespace `P`, its other types unchanged: the
 * typed client, `ArgsOf` and `ResultOf` see `billing_charge` with `charge`'s arguments. A name
 * not known (`string`, a tool read at run time) stays `string`.
 */
export type Namespaced<U extends AnyTool, P extends string> = P extends ''
  ? U
  : U extends AnyTool
    ? Tool<string extends U['name'] ? string : `${P}${typeof separator}${U['name']}`, U['_I'], U['_O'], U['_S'], U['_D'], U['_C'], U['_app'], U['_W']>
    : never

// ---------------------------------------------------------------------------------------
// functions

/** `name` under `namespace`. */
export const prefixed = (namespace: string, name: string): string => (namespace === '' ? name : `${namespace}${separator}${name}`)

/** The name inside `namespace` that `whole` names, or undefined when it is not one of that namespace's. */
export const unprefixed = (namespace: string, whole: string): string | undefined =>
  namespace === '' ? whole : whole.startsWith(`${namespace}${separator}`) ? whole.slice(namespace.length + 1) : undefined

const namespacePattern = /^[A-Za-z0-9.-][A-Za-z0-9._-]{0,63}$/

/** Fails unless a namespace is empty or 1-64 of `A-Z a-z 0-9 _ - .` (not starting with `_`). */
export const checkNamespace = (namespace: unknown): string => {
  if (namespace === '' || (typeof namespace === 'string' && namespacePattern.test(namespace))) return namespace
  throw new TypeError(`emcp: invalid namespace ${JSON.stringify(namespace)}: use '' or 1-64 of A-Z a-z 0-9 _ - . (not starting with _)`)
}
