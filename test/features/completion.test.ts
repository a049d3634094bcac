import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { complete, completeWith } from '../../src/features/completion.js'
import type { Completer, Completion, CompletionContext, CompletionRequest, Feature } from '../../src/index.js'
import { newSession } from '../../src/index.js'
import type { Request } from '../../src/protocol/jsonrpc.js'

const cities = ['Oslo', 'Osaka', 'Ottawa', 'Paris']

const ask = (name: string, value: string, context?: CompletionRequest['context']): CompletionRequest => ({
  ref: { type: 'ref/prompt', name: 'trip' },
  argument: { name, value },
  ...(context === undefined ? {} : { context }),
})

describe('completeWith: one argument through a table of completers', () => {
  it('wraps a list of values into a completion', () => {
    const city: Completer<{ city: string }> = (value) => cities.filter((c) => c.startsWith(value))
    expect(completeWith({ city }, ask('city', 'O'))).toEqual({ values: ['Oslo', 'Osaka', 'Ottawa'] })
    expect(completeWith({ city }, ask('city', 'Z'))).toEqual({ values: [] })
  })

  it('passes a Completion through as it is, total and hasMore included', () => {
    const city: Completer<{ city: string }> = () => ({ values: ['Oslo'], total: 12, hasMore: true })
    expect(completeWith({ city }, ask('city', ''))).toEqual({ values: ['Oslo'], total: 12, hasMore: true })
  })

  it('waits for an asynchronous completer, list or Completion', async () => {
    const city: Completer<{ city: string }> = async (value) => cities.filter((c) => c.startsWith(value))
    const country: Completer<{ country: string }> = async () => ({ values: ['Norway'], total: 1, hasMore: false })
    const a = completeWith({ city }, ask('city', 'P'))
    const b = completeWith({ country }, ask('country', 'N'))
    expect(a).toBeInstanceOf(Promise)
    expect(await a).toEqual({ values: ['Paris'] })
    expect(await b).toEqual({ values: ['Norway'], total: 1, hasMore: false })
  })

  it('answers no values for an argument without a completer, or without any table', () => {
    const city: Completer<{ city: string }> = () => cities
    expect(completeWith({ city }, ask('country', ''))).toEqual({ values: [] })
    expect(completeWith({ city: undefined }, ask('city', ''))).toEqual({ values: [] })
    expect(completeWith(undefined, ask('city', ''))).toEqual({ values: [] })
  })

  it('looks only at the table’s own completers, not at inherited names', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(completeWith({}, ask(name, ''))).toEqual({ values: [] })
  })

  it('passes the value typed so far, and the arguments the client already resolved', () => {
    const seen: Array<[string, CompletionContext<{ country: string; city: string }>]> = []
    const city: Completer<{ country: string; city: string }> = (value, context) => {
      seen.push([value, context])
      return context.arguments.country === 'Japan' ? ['Osaka'] : ['Oslo']
    }
    expect(completeWith({ city }, ask('city', 'Os', { arguments: { country: 'Japan' } }))).toEqual({ values: ['Osaka'] })
    expect(completeWith({ city }, ask('city', 'Os'))).toEqual({ values: ['Oslo'] })
    expect(completeWith({ city }, ask('city', 'Os', {}))).toEqual({ values: ['Oslo'] })
    expect(seen).toEqual([
      ['Os', { arguments: { country: 'Japan' } }],
      ['Os', { arguments: {} }],
      ['Os', { arguments: {} }],
    ])
  })

  it('lets a completer’s throw propagate (the dispatcher turns it into an error)', () => {
    const city: Completer<{ city: string }> = () => {
      throw new Error('no cities today')
    }
    expect(() => completeWith({ city }, ask('city', ''))).toThrow('no cities today')
  })
})

// ---------------------------------------------------------------------------------------
// the completion/complete dispatcher (the rest is covered through the server in feature.test.ts)

const request = (params: Request['params']): Request => ({ kind: 'request', id: 1, method: 'completion/complete', params })

/** A feature that completes only the prompt (or template) it owns. */
const owning = (owns: (r: CompletionRequest) => boolean, answer: (r: CompletionRequest) => Completion | Promise<Completion>): Feature => ({
  capabilities: {},
  methods: {},
  complete: (r) => (owns(r) ? answer(r) : undefined),
})

describe('complete: completion/complete through the features that own the reference', () => {
  const session = newSession()
  const tripParams = { ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'city', value: 'O' } }

  it('answers synchronously when every feature does', () => {
    const f = owning(
      (r) => r.ref.type === 'ref/prompt' && r.ref.name === 'trip',
      (r) => ({ values: cities.filter((c) => c.startsWith(r.argument.value)) }),
    )
    expect(complete([f], request(tripParams), session)).toEqual(E.right({ completion: { values: ['Oslo', 'Osaka', 'Ottawa'] } }))
  })

  it('waits for an asynchronous feature that does not own the reference, then asks the next', async () => {
    const asked: string[] = []
    const other: Feature = {
      capabilities: {},
      methods: {},
      complete: async () => {
        asked.push('other')
        return undefined
      },
    }
    const trips = owning(
      (r) => r.ref.type === 'ref/prompt',
      async (r) => {
        asked.push('trips')
        return { values: cities.filter((c) => c.startsWith(r.argument.value)) }
      },
    )
    const out = complete([other, trips], request(tripParams), session)
    expect(out).toBeInstanceOf(Promise)
    expect(await out).toEqual(E.right({ completion: { values: ['Oslo', 'Osaka', 'Ottawa'] } }))
    expect(asked).toEqual(['other', 'trips'])
  })

  it('answers from an asynchronous completer through completeWith', async () => {
    const city: Completer<{ city: string }> = async (value) => cities.filter((c) => c.startsWith(value))
    const f: Feature = { capabilities: {}, methods: {}, complete: (r) => completeWith({ city }, r) }
    expect(await complete([f], request(tripParams), session)).toEqual(E.right({ completion: { values: ['Oslo', 'Osaka', 'Ottawa'] } }))
  })

  it('refuses -32602 when no feature, synchronous or not, owns the reference', async () => {
    const none: Feature = { capabilities: {}, methods: {}, complete: async () => undefined }
    const out = await complete([none], request(tripParams), session)
    expect(E.isLeft(out) && out.left).toMatchObject({ _tag: 'InvalidParams', message: 'completion/complete: no prompt named trip' })
    const res = complete([], request({ ref: { type: 'ref/resource', uri: 'file:///{x}' }, argument: { name: 'x', value: '' } }), session) as E.Either<
      { message: string },
      unknown
    >
    expect(E.isLeft(res) && res.left.message).toBe('completion/complete: no resource template file:///{x}')
  })

  it('keeps an explicit total when it caps more than 100 values', async () => {
    const values = Array.from({ length: 150 }, (_, i) => `v${i}`)
    const f = owning(() => true, async () => ({ values, total: 1000 }))
    const out = (await complete([f], request(tripParams), session)) as E.Right<{ completion: Completion }>
    expect(out.right.completion.values).toEqual(values.slice(0, 100))
    expect(out.right.completion.total).toBe(1000)
    expect(out.right.completion.hasMore).toBe(true)
  })

  it('says there is more when it caps, whatever hasMore the completer gave', () => {
    const values = Array.from({ length: 101 }, (_, i) => `v${i}`)
    const f = owning(() => true, () => ({ values, total: 101, hasMore: false }))
    const out = complete([f], request(tripParams), session) as E.Right<{ completion: Completion }>
    expect(out.right.completion).toEqual({ values: values.slice(0, 100), total: 101, hasMore: true })
  })

  it('leaves exactly 100 values, with their total, as they are', () => {
    const values = Array.from({ length: 100 }, (_, i) => `v${i}`)
    const f = owning(() => true, () => ({ values, total: 500, hasMore: true }))
    const out = complete([f], request(tripParams), session) as E.Right<{ completion: Completion }>
    expect(out.right.completion).toEqual({ values, total: 500, hasMore: true })
  })

  it('hands the context over to the feature when it is an object, and drops it otherwise', () => {
    const seen: Array<CompletionRequest['context']> = []
    const f = owning(
      () => true,
      (r) => {
        seen.push(r.context)
        return { values: [] }
      },
    )
    complete([f], request({ ...tripParams, context: { arguments: { country: 'Norway' } } }), session)
    complete([f], request({ ...tripParams, context: 'nope' }), session)
    expect(seen).toEqual([{ arguments: { country: 'Norway' } }, undefined])
  })

  it('refuses malformed params with -32602 before asking any feature', () => {
    let asked = 0
    const f: Feature = {
      capabilities: {},
      methods: {},
      complete: () => {
        asked++
        return { values: [] }
      },
    }
    const bad: Array<Request['params']> = [
      undefined,
      { argument: { name: 'a', value: '' } },
      { ref: { type: 'ref/prompt' }, argument: { name: 'a', value: '' } },
      { ref: { type: 'ref/resource', name: 'x' }, argument: { name: 'a', value: '' } },
      { ref: { type: 'ref/prompt', name: 'trip' } },
      { ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'a' } },
      { ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 1, value: '' } },
      { ref: ['ref/prompt'], argument: { name: 'a', value: '' } },
    ]
    for (const params of bad) {
      const out = complete([f], request(params), session) as E.Either<{ _tag: string }, unknown>
      expect(E.isLeft(out) && out.left._tag).toBe('InvalidParams')
    }
    expect(asked).toBe(0)
  })
})
