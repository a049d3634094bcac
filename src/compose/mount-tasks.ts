/**
 * The tasks extension (`io.modelcontextprotocol/tasks`) through a mount. A part may hand a
 * call off to a task only when the client can poll it through the whole: the session a part
 * is called with names the extension only when the whole carries it. Internal.
 *
 * @example
 * import { mountTasks } from './mount-tasks.js'
 * // const tasks = mountTasks(parts)
 * // tasks.call(part, request, session) // the part's answer: inline, or a task the whole can route
 */
import type { Answer } from '../server/feature.js'
import type { Session } from '../server/session.js'
import type { Request } from '../protocol/jsonrpc.js'
import { declaresTasks, tasksExtension } from '../features/tasks/extension.js'
import { isObject } from '../util/json-object.js'
import type { Part } from './parts.js'

// ---------------------------------------------------------------------------------------
// model

/** How the mount carries the tasks extension of its parts. */
export interface MountTasks {
  /** A `tools/call` handed to a part, with the extension only where the whole can route the part's tasks. */
  readonly call: (part: Part, req: Request, session: Session) => Answer
}

// ---------------------------------------------------------------------------------------
// constructors

/** The tasks side of a mount over its parts. */
export const mountTasks = (_parts: ReadonlyArray<Part>): MountTasks => ({
  // the whole does not route tasks/* yet: a task a part made would be one the client cannot poll
  call: (part, req, session) => part.inner.inner(req, declaresTasks(session) ? withoutTasks(session) : session),
})

/** True for a `CreateTaskResult`: the answer that hands a call off to a task. */
export const isTask = (result: unknown): boolean => isObject(result) && result.resultType === 'task'

// ---------------------------------------------------------------------------------------
// internals

/** The session as if its client had not declared the extension (the rest shared, as a call's own session is). */
const withoutTasks = (session: Session): Session => {
  const caps = session.clientCapabilities ?? {}
  const { [tasksExtension]: _dropped, ...extensions } = isObject(caps.extensions) ? caps.extensions : {}
  return { ...session, clientCapabilities: { ...caps, extensions } }
}
