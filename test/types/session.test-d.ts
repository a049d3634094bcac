/**
 * Type tests of sessions (src/server/session.ts): `newSession` takes an optional revision (only one
 * emcp speaks) and an optional channel; the dispatcher's fields are mutable, the collections
 * and the channel are not reassignable; log levels are the eight of RFC 5424.
 */
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import { logLevels, newSession, outbound, type AnyProtocolVersion, type ClientInfo, type LogLevel, type Outbound, type ProtocolVersion, type RequestId, type Session } from 'emcp'

// ---------------------------------------------------------------------------------------
// newSession: every way to call it

const out = outbound(() => {})
expectType<Session>(newSession())
expectType<Session>(newSession('2025-06-18'))
expectType<Session>(newSession('2024-11-05', out))
expectType<Session>(newSession(undefined, out))
expectType<Session>(newSession(undefined, undefined))
expectType<Session>(newSession('2025-11-25' as ProtocolVersion))
expectError(newSession('2023-01-01'))
expectError(newSession('2025-06-18' as string))
expectError(newSession(20250618))
expectError(newSession('2025-06-18', {}))
expectError(newSession('2025-06-18', (m: unknown) => m))
expectError(newSession('2025-06-18', out, 'extra'))

// ---------------------------------------------------------------------------------------
// the session's fields

const s = newSession()
expectType<AnyProtocolVersion>(s.protocolVersion)
expectType<Session>(newSession('2026-07-28'))
expectType<ClientInfo | undefined>(s.clientInfo)
expectType<{ readonly [key: string]: unknown } | undefined>(s.clientCapabilities)
expectType<boolean>(s.initialized)
expectType<Map<RequestId, (reason?: unknown) => void>>(s.inFlight)
expectType<Set<RequestId>>(s.cancelled)
expectType<Outbound | undefined>(s.outbound)
expectType<LogLevel | undefined>(s.logLevel)

// what initialize and logging/setLevel change is writable, with values of the right type
s.protocolVersion = '2025-03-26'
s.clientInfo = { name: 'client', version: '1.0.0', title: 'A client', extra: true }
s.clientCapabilities = { roots: { listChanged: true } }
s.initialized = true
s.logLevel = 'warning'
s.logLevel = undefined
s.inFlight.set(1, () => {})
s.inFlight.set('r', (reason) => {
  expectType<unknown>(reason)
})
s.cancelled.add('r')
expectError((s.protocolVersion = '1999-01-01'))
expectError((s.logLevel = 'verbose'))
expectError((s.initialized = 'yes'))
expectError((s.clientInfo = { name: 'client' }))
expectError(s.cancelled.add(null))
expectError(s.inFlight.set(1.5 as unknown as boolean, () => {}))
// the collections and the channel are the session's own
expectError((s.outbound = out))
expectError((s.inFlight = new Map()))
expectError((s.cancelled = new Set()))

// a read-only view (what handlers get) changes nothing
const view: Readonly<Session> = s
expectError((view.initialized = false))
expectError((view.logLevel = 'debug'))

// ---------------------------------------------------------------------------------------
// log levels and client info

expectType<'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'>({} as LogLevel)
expectType<readonly ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']>(logLevels)
expectType<'debug'>(logLevels[0])
expectType<'emergency'>(logLevels[7])
expectAssignable<ReadonlyArray<LogLevel>>(logLevels)
expectNotAssignable<LogLevel>('warn')
expectNotAssignable<LogLevel>('fatal')
expectError(logLevels.push('trace'))

expectAssignable<ClientInfo>({ name: 'c', version: '1' })
expectAssignable<ClientInfo>({ name: 'c', version: '1', title: 'C', websiteUrl: 'https://example.com' })
expectNotAssignable<ClientInfo>({ name: 'c' })
expectNotAssignable<ClientInfo>({ version: '1' })
expectNotAssignable<ClientInfo>({ name: 'c', version: 1 })
expectNotAssignable<ClientInfo>({ name: 'c', version: '1', title: 2 })
