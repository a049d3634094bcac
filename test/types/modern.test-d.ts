/**
 * Type tests of the 2026-07-28 options (src/protocol/2026-07-28/modern.ts, request-state.ts,
 * subscriptions.ts): the eras a server serves, caching hints per server and per method,
 * the requestState key, the subscription filter.
 */
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  emcp,
  mcpServer,
  type CacheableMethod,
  type CacheHints,
  type CacheOptions,
  type Era,
  type RequestStateOptions,
  type ServerOptions,
  type SubscriptionFilter,
} from 'emcp'

const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })

// eras: one or both, by name
mcpServer([noop], { name: 's', version: '1' }, { eras: ['2026-07-28'] })
mcpServer([noop], { name: 's', version: '1' }, { eras: ['2025-11-25', '2026-07-28'] })
expectError(mcpServer([noop], { name: 's', version: '1' }, { eras: ['2025-06-18'] }))
expectType<ReadonlyArray<Era> | undefined>({} as ServerOptions['eras'])

// caching hints
expectAssignable<CacheOptions>({ ttlMs: 1000, cacheScope: 'public', methods: { 'resources/read': { cacheScope: 'private' } } })
expectNotAssignable<CacheHints>({ cacheScope: 'shared' })
expectError(mcpServer([noop], { name: 's', version: '1' }, { cache: { methods: { 'tools/call': { ttlMs: 1 } } } }))
expectType<'server/discover' | 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read'>({} as CacheableMethod)

// the requestState key: text or bytes
expectAssignable<RequestStateOptions>({ key: 'a shared secret of some length' })
expectAssignable<RequestStateOptions>({ key: new Uint8Array(32), ttlMs: 60_000 })
expectNotAssignable<RequestStateOptions>({ key: 42 })

// what a client may opt in to
expectAssignable<SubscriptionFilter>({ toolsListChanged: true, resourceSubscriptions: ['a://b'] })
expectNotAssignable<SubscriptionFilter>({ resourceSubscriptions: 'a://b' })
