import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { emcp, mcpServer, sumOf, type AnyTool, type SumError } from '../../src/index.js'

/** A contract whose name is only known at run time (bypasses the compile-time name check). */
const named = (name: string): AnyTool => emcp({ name: name as string, description: `Tool ${name}.`, input: { type: 'object' } })

const errorsOf = (tools: ReadonlyArray<AnyTool>): ReadonlyArray<SumError> => {
  const r = sumOf(tools)
  if (E.isRight(r)) throw new Error('expected the list to be refused')
  return r.left
}

const info = { name: 'sum', version: '1' }

describe('sum: sumOf, the run-time backstop', () => {
  it('maps each name to its contract, in the order given', () => {
    const a = named('a')
    const b = named('b.c-d_e')
    const r = sumOf([a, b])
    expect(E.isRight(r)).toBe(true)
    if (E.isRight(r)) {
      expect([...r.right.keys()]).toEqual(['a', 'b.c-d_e'])
      expect(r.right.get('a')).toBe(a)
      expect(r.right.get('b.c-d_e')).toBe(b)
    }
  })

  it('refuses the empty list: a server needs at least one tool', () => {
    expect(errorsOf([])).toEqual([{ path: '', message: 'a server needs at least one tool' }])
  })

  it('accepts names of exactly 1 and 128 characters', () => {
    expect(E.isRight(sumOf([named('x'), named('y'.repeat(128))]))).toBe(true)
  })

  it.each([
    ['with a space', 'bad name'],
    ['of 129 characters', 'a'.repeat(129)],
    ['that is empty', ''],
    ['with a slash', 'a/b'],
    ['with a non-ASCII letter', 'café'],
  ])('refuses a name %s, at the path of that name', (_label, name) => {
    const errors = errorsOf([named('ok'), named(name)])
    expect(errors).toHaveLength(1)
    expect(errors[0]?.path).toBe('/1/name')
    expect(errors[0]?.message).toContain(JSON.stringify(name))
  })

  it('refuses a list entry that is not a tool at all', () => {
    const errors = errorsOf([null as unknown as AnyTool])
    expect(errors).toEqual([{ path: '/0/name', message: expect.stringContaining('invalid tool name undefined') }])
  })

  it('refuses a duplicate name at the path of the second occurrence', () => {
    expect(errorsOf([named('a'), named('b'), named('a')])).toEqual([{ path: '/2/name', message: 'duplicate tool name: a' }])
  })

  it('reports every problem of the list, each with its path', () => {
    const errors = errorsOf([named('a'), named('bad name'), named('a'), named(''), named('z'.repeat(129)), named('a')])
    expect(errors.map((e) => e.path)).toEqual(['/1/name', '/2/name', '/3/name', '/4/name', '/5/name'])
  })
})

describe('sum: mcpServer refuses an invalid list at run time', () => {
  it('throws a TypeError listing every problem with its path', () => {
    const tools = [named('a'), named('bad name'), named('a')]
    let thrown: unknown
    try {
      mcpServer(tools as any, info)
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(TypeError)
    const message = (thrown as TypeError).message
    expect(message).toContain('/1/name invalid tool name "bad name"')
    expect(message).toContain('/2/name duplicate tool name: a')
  })

  it('refuses a name the compiler lets through (a symbol, a CJK letter), naming it', () => {
    // these compile: the compile-time check lists ASCII punctuation, Latin-1 letters and typographic marks, not every script
    for (const name of ['price©', 'ツール', 'имя'] as const) {
      const tool = emcp({ name, input: { type: 'object' } })
      expect(() => mcpServer([tool], info)).toThrow(`/0/name invalid tool name ${JSON.stringify(name)}`)
    }
  })

  it('refuses at run time too the names the compiler refuses (an accented letter, a typographic dash), when they come as plain strings', () => {
    for (const name of ['café', 'get–user', 'Über'] as ReadonlyArray<string>) {
      const tool = emcp({ name, input: { type: 'object' } })
      expect(() => mcpServer([tool], info)).toThrow(`/0/name invalid tool name ${JSON.stringify(name)}`)
    }
  })

  it('throws a TypeError for the empty list', () => {
    expect(() => mcpServer([] as any, info)).toThrow(/at least one tool/)
  })

  it.each([0, -1, 1.5, Number.NaN])('throws a TypeError for pageSize %s', (pageSize) => {
    expect(() => mcpServer([named('a')] as any, info, { pageSize })).toThrow(TypeError)
  })
})

describe('sum: implement checks handler coverage at run time', () => {
  const a = emcp({ name: 'a', input: { type: 'object' } })
  const b = emcp({ name: 'b', input: { type: 'object' } })
  const builder = mcpServer([a, b], info)

  it('throws on a missing handler, naming the tool', () => {
    expect(() => builder.implement({ a: () => 'x' } as any)).toThrow(/missing handler for tool b/)
  })

  it('throws on a handler for a tool that is not in the list, naming it', () => {
    expect(() => builder.implement({ a: () => 'x', b: () => 'y', c: () => 'z' } as any)).toThrow(
      /handler for unknown tool c/,
    )
  })

  it('throws on a handler that is not a function', () => {
    expect(() => builder.implement({ a: () => 'x', b: 'nope' } as any)).toThrow(/missing handler for tool b/)
  })

  it('reports a missing and an extra handler together, as a TypeError', () => {
    let thrown: unknown
    try {
      builder.implement({ a: () => 'x', typo: () => 'y' } as any)
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(TypeError)
    expect((thrown as Error).message).toMatch(/missing handler for tool b.*handler for unknown tool typo/)
  })

  it('builds the server when every tool has exactly one handler', () => {
    const server = builder.implement({ a: () => 'x', b: () => 'y' })
    expect(server.tools.map((t) => t.name)).toEqual(['a', 'b'])
  })
})
