/**
 * Change notices grouped by batch: outside a batch a change is told at once; inside one
 * (batches nest) it is told once, when the outermost batch returns, even if it throws. The
 * registries and a mount's tool table tell their clients `list_changed` through it.
 *
 * @example
 * import { batched } from './batched.js'
 * const b = batched(() => console.log('changed'))
 * b.changed()                                // logs once
 * b.batch(() => { b.changed(); b.changed() }) // logs once, at the end
 */

/** A change teller with batches. */
export interface Batched {
  /** A change: told now, or at the end of the outermost batch running. */
  readonly changed: () => void
  /** Runs `changes`; the changes it made are told once, when it returns. */
  readonly batch: (changes: () => void) => void
}

/** A teller calling `tell` once per change outside batches, once per outermost batch inside. */
export const batched = (tell: () => void): Batched => {
  const state = { depth: 0, pending: false }
  return {
    changed: () => {
      if (state.depth > 0) state.pending = true
      else tell()
    },
    batch: (changes) => {
      state.depth++
      try {
        changes()
      } finally {
        if (--state.depth === 0 && state.pending) {
          state.pending = false
          tell()
        }
      }
    },
  }
}
