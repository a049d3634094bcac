/**
 * Type tests of the tasks extension (src/features/tasks/*): task support declared in a tool's contract
 * (one of three literals), the tasks() feature and its store, and the wire shapes of tasks.
 */
import * as E from 'fp-ts/lib/Either.js'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  emcp,
  isTerminal,
  mcpServer,
  taskStore,
  tasks,
  tasksExtension,
  type CreateTaskResult,
  type DetailedTask,
  type FeatureFactory,
  type RequestOptions,
  type RpcError,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
  type TaskSupport,
  type TasksFeature,
} from 'emcp'

// the contract: taskSupport is one of three literals, and the handler is the same either way
const slow = emcp({ name: 'slow', description: 'Slow.', input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, taskSupport: 'optional' })
expectType<TaskSupport | undefined>(slow.taskSupport)
expectType<'forbidden' | 'optional' | 'required'>({} as TaskSupport)
expectError(emcp({ name: 'bad', input: { type: 'object' }, taskSupport: 'sometimes' }))
expectError(emcp({ name: 'bad', input: { type: 'object' }, taskSupport: true }))
mcpServer([slow], { name: 's', version: '1' }, { features: [tasks()] }).implement({
  slow: async ({ n }, ctx) => {
    expectType<number>(n)
    expectType<AbortSignal>(ctx.signal)
    return String(n)
  },
})

// the feature and its store
const feature = tasks({ ttlMs: 60_000, maxTasks: 10, pollIntervalMs: 500, immediateMs: 0 })
expectType<TasksFeature>(feature)
expectAssignable<FeatureFactory>(feature)
expectType<TaskStore>(feature.store)
expectAssignable<TasksFeature>(tasks({ store: taskStore(), ttlMs: null }))
expectError(tasks({ ttlMs: '1h' }))
expectError(tasks({ store: {} }))
expectType<'io.modelcontextprotocol/tasks'>(tasksExtension)

const store = taskStore()
expectType<E.Either<RpcError, TaskRecord>>(store.create())
expectType<DetailedTask | undefined>(store.detailed('id'))
expectType<Promise<unknown>>(store.ask('id', { method: 'elicitation/create', params: { message: 'm' } }, { timeoutMs: 10 }))
expectType<number>(store.answer('id', { 'input-1': { action: 'accept' } }))
expectType<boolean>(store.cancel('id'))
expectType<() => void>(store.onChange((t) => expectType<DetailedTask>(t)))
// a task may be created for an owner (a principal key), which its record and the listeners carry
expectType<E.Either<RpcError, TaskRecord>>(store.create(undefined, 'u:owner-key'))
expectType<string | undefined>(store.get('id')?.owner)
expectType<() => void>(store.onChange((_t, owner) => expectType<string | undefined>(owner)))
expectError(store.create(undefined, 42))
expectError(store.ask('id', { params: {} }))
expectType<boolean>(isTerminal('completed'))
expectError(isTerminal('done'))

// wire shapes
expectAssignable<TaskStatus>('input_required')
expectNotAssignable<TaskStatus>('running')
expectType<'task'>({} as CreateTaskResult['resultType'])
expectType<number | null>({} as DetailedTask['ttlMs'])
expectNotAssignable<CreateTaskResult>({ resultType: 'complete', taskId: 't', status: 'working', createdAt: '', lastUpdatedAt: '', ttlMs: null })

// a question may be named (its key in a 2026-07-28 or task inputRequests)
expectAssignable<RequestOptions>({ key: 'user_name', timeoutMs: 1000 })
expectNotAssignable<RequestOptions>({ key: 1 })
expectType<Promise<unknown>>(store.ask('id', { method: 'roots/list' }, { key: 'client_roots' }))
