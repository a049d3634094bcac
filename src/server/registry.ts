/**
 * A registry: the entries a server serves (tools, prompts, resources), keyed and in order,
 * each enabled or not, with a view derived from the enabled ones (their list pages, their
 * index by name) that is recomputed when the registry changes, never per request. Changes
 * inside `batch` are recomputed and told once, when the outermost batch returns.
 *
 * @example
 * import { registry } from './registry.js'
 * const r = registry([{ name: 'a' }], { noun: 'thing', keyOf: (x) => x.name, derive: (on) => on.map((x) => x.name), changed: () => console.log('changed') })
 * r.add({ name: 'b' })      // logs "changed"
 * r.setEnabled('a', false)  // logs "changed"
 * r.view()                  // ['b']
 */
import { batched } from '../util/batched.js'

// ---------------------------------------------------------------------------------------
// model

/** Entries of one kind, keyed by `keyOf`, and the view derived from the enabled ones. */
export interface Registry<V, D> {
  /** Every entry, enabled or not, in the order given, then as added. */
  readonly list: () => ReadonlyArray<V>
  /** The entry of a key, enabled or not. */
  readonly get: (key: string) => V | undefined
  /** True when the key names an enabled entry. */
  readonly isEnabled: (key: string) => boolean
  /** Adds an entry (enabled); a key already taken is a `TypeError`. */
  readonly add: (entry: V) => void
  /** Removes the entry of a key; false when there was none. */
  readonly remove: (key: string) => boolean
  /** Lists and serves an entry again, or keeps it declared but unserved; a key of no entry is a `TypeError`. */
  readonly setEnabled: (key: string, enabled: boolean) => void
  /** Runs `changes`; the view is recomputed, and the change told, once when it returns. */
  readonly batch: (changes: () => void) => void
  /** The view of the enabled entries, as of the last change. */
  readonly view: () => D
}

// ---------------------------------------------------------------------------------------
// constructors

/** How a registry keys, derives and tells: `noun` names its entries in errors. */
export interface RegistryOptions<V, D> {
  readonly noun: string
  readonly keyOf: (entry: V) => string
  readonly derive: (enabled: ReadonlyArray<V>) => D
  readonly changed: () => void
}

/** A registry over `entries` (whose keys the caller has checked); `changed` runs after every change, once per batch. */
export const registry = <V, D>(entries: ReadonlyArray<V>, { noun, keyOf, derive, changed }: RegistryOptions<V, D>): Registry<V, D> => {
  // a loop, not a map of pairs: this runs over every tool of a server when it is built
  const byKey = new Map<string, V>()
  for (const e of entries) byKey.set(keyOf(e), e)
  const state = {
    byKey,
    list: entries.slice() as ReadonlyArray<V>,
    disabled: new Set<string>(),
    view: derive(entries),
  }
  // the view is derived again once per change outside a batch, once per outermost batch inside
  const { changed: touch, batch } = batched(() => {
    state.view = derive(state.disabled.size === 0 ? state.list : state.list.filter((e) => !state.disabled.has(keyOf(e))))
    changed()
  })
  return {
    list: () => state.list,
    get: (key) => state.byKey.get(key),
    isEnabled: (key) => state.byKey.has(key) && !state.disabled.has(key),
    add: (entry) => {
      const key = keyOf(entry)
      if (state.byKey.has(key)) throw new TypeError(`emcp: duplicate ${noun} ${key}`)
      state.byKey.set(key, entry)
      state.list = [...state.list, entry]
      touch()
    },
    remove: (key) => {
      if (!state.byKey.delete(key)) return false
      state.disabled.delete(key)
      state.list = state.list.filter((e) => keyOf(e) !== key)
      touch()
      return true
    },
    setEnabled: (key, enabled) => {
      if (!state.byKey.has(key)) throw new TypeError(`emcp: no ${noun} is named ${key}`)
      if (enabled === !state.disabled.has(key)) return
      if (enabled) state.disabled.delete(key)
      else state.disabled.add(key)
      touch()
    },
    batch,
    view: () => state.view,
  }
}
