/**
 * Type tests of hubs (src/server/hub.ts): the sessions a server can reach, and broadcasts that may
 * pick their recipients by a session predicate.
 */
import { expectError, expectType } from 'tsd'
import { hub, newSession, outbound, type Hub, type Session } from 'emcp'

const h = hub()
expectType<Hub>(h)
expectError(hub(10))

const s = newSession(undefined, outbound(() => {}))
expectType<void>(h.add(s))
expectType<void>(h.add(newSession()))
expectType<void>(h.remove(s))
expectType<number>(h.size())
expectError(h.add())
expectError(h.add({ outbound: undefined }))
expectError(h.remove('session-1'))

expectType<void>(h.broadcast('notifications/tools/list_changed'))
expectType<void>(h.broadcast('notifications/resources/updated', { uri: 'docs://readme' }))
expectType<void>(
  h.broadcast('notifications/resources/updated', { uri: 'docs://readme' }, (session) => {
    expectType<Session>(session)
    return session.initialized
  }),
)
expectType<void>(h.broadcast('notifications/tools/list_changed', undefined, (session) => session.protocolVersion === '2025-11-25'))
expectError(h.broadcast())
expectError(h.broadcast('m', 'params'))
expectError(h.broadcast('m', undefined, (session) => session.protocolVersion))
expectError(h.broadcast('m', undefined, (session: string) => session === 'a'))

// a hub's members are fixed
expectError((h.size = () => 0))

// anything of that shape is a hub (a test double, a fan-out)
const spy: Hub = { add: () => {}, remove: () => {}, broadcast: () => {}, size: () => 0 }
expectType<Hub>(spy)
