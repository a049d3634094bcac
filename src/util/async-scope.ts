/**
 * A value that follows a call through its awaits: Node's `AsyncLocalStorage`, which Node,
 * Deno and Bun all have, found without a static `node:async_hooks` import (through
 * `process.getBuiltinModule`), so that a bundle of the fetch entry loads on runtimes that
 * have no Node modules (workerd without `nodejs_compat`). There, and on a Node older than
 * 20.16, the scope holds only for the synchronous part of `run`: the stateful HTTP sessions,
 * its only user, then find a handler's later messages' request by the id they name.
 *
 * @example
 * import { asyncScope } from './async-scope.js'
 * const scope = asyncScope<string>()
 * scope.run('request 1', () => scope.getStore()) // 'request 1'
 */

// ---------------------------------------------------------------------------------------
// model

/** The part of `AsyncLocalStorage` emcp uses. */
export interface AsyncScope<T> {
  /** Runs `f` with `store` as the scope's value (and, where the runtime carries it, in everything `f` starts). */
  readonly run: <R>(store: T, f: () => R) => R
  /** The value of the innermost `run` this code runs under, if any. */
  readonly getStore: () => T | undefined
}

// ---------------------------------------------------------------------------------------
// constructors

/** A new scope: the runtime's `AsyncLocalStorage` when it has one, else a synchronous one. */
export const asyncScope = <T>(): AsyncScope<T> => {
  const Storage = storageClass()
  if (Storage !== undefined) {
    const storage = new Storage()
    return { run: (store, f) => storage.run(store, f), getStore: () => storage.getStore() as T | undefined }
  }
  let current: T | undefined
  return {
    run: (store, f) => {
      const before = current
      current = store
      try {
        return f()
      } finally {
        current = before
      }
    },
    getStore: () => current,
  }
}

// ---------------------------------------------------------------------------------------
// internals

type StorageClass = new () => { run<R>(store: unknown, f: () => R): R; getStore(): unknown }

/** `AsyncLocalStorage` through `process.getBuiltinModule` (Node ≥ 20.16, Deno, Bun), or undefined. */
const storageClass = (): StorageClass | undefined => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process
  const hooks = typeof proc?.getBuiltinModule === 'function' ? (proc.getBuiltinModule('node:async_hooks') as { AsyncLocalStorage?: StorageClass } | undefined) : undefined
  return hooks?.AsyncLocalStorage
}
