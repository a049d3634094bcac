import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { answerPage, checkPageSize, pageAt, pageIndex, pagesOf } from '../../src/server/pages.js'
import { errorCodes, type RpcError } from '../../src/index.js'
import type { RawJson } from '../../src/protocol/jsonrpc.js'

type Page = { readonly [key: string]: unknown; readonly nextCursor?: string }

const valueOf = (page: RawJson | undefined): Page => (page as RawJson<Page>).value

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `t${i}` }))

/** Follows a list from its first page to its last, the way a client does. */
const walk = (key: string, pages: ReadonlyArray<RawJson>): Page[] => {
  const seen: Page[] = []
  let cursor: string | undefined
  for (let guard = 0; guard < 1000; guard++) {
    const r = answerPage(`${key}/list`, key, pages, cursor)
    if (E.isLeft(r)) throw new Error(r.left.message)
    const page = (r.right as RawJson<Page>).value
    seen.push(page)
    if (page.nextCursor === undefined) return seen
    cursor = page.nextCursor
  }
  throw new Error('the chain of cursors never ends')
}

const left = (r: E.Either<RpcError, unknown>): RpcError => {
  if (E.isRight(r)) throw new Error(`expected a refusal, got ${JSON.stringify(r.right)}`)
  return r.left
}

const cursorText = (key: string, page: string | number): string => Buffer.from(`emcp-${key}:${page}`).toString('base64url')

describe('pagesOf: every page of a list, serialised once', () => {
  it('puts the whole list in one page without nextCursor when there is no page size', () => {
    const pages = pagesOf('tools', items(3), undefined)
    expect(pages).toHaveLength(1)
    expect(valueOf(pages[0])).toEqual({ tools: items(3) })
    expect('nextCursor' in valueOf(pages[0])).toBe(false)
  })

  it('gives an empty list one empty page, with or without a page size', () => {
    for (const size of [undefined, 1, 10]) {
      const pages = pagesOf('prompts', [], size)
      expect(pages).toHaveLength(1)
      expect(valueOf(pages[0])).toEqual({ prompts: [] })
    }
  })

  it('keeps a list that fits in one page whole, without nextCursor', () => {
    expect(pagesOf('tools', items(3), 3).map(valueOf)).toEqual([{ tools: items(3) }])
    expect(pagesOf('tools', items(3), 50).map(valueOf)).toEqual([{ tools: items(3) }])
  })

  it('chains pages by nextCursor; the last has none', () => {
    const pages = pagesOf('tools', items(5), 2)
    expect(pages).toHaveLength(3)
    const [a, b, c] = pages.map(valueOf)
    expect(a?.tools).toEqual(items(5).slice(0, 2))
    expect(b?.tools).toEqual(items(5).slice(2, 4))
    expect(c).toEqual({ tools: items(5).slice(4) })
    expect(typeof a?.nextCursor).toBe('string')
    expect(typeof b?.nextCursor).toBe('string')
    expect(a?.nextCursor).not.toBe(b?.nextCursor)
  })

  it('ends a list that fills its last page exactly without a dangling cursor', () => {
    const pages = pagesOf('resources', items(4), 2)
    expect(pages).toHaveLength(2)
    expect(valueOf(pages[1])).toEqual({ resources: items(4).slice(2) })
  })

  it('serialises each page once: the text is the JSON of the value', () => {
    for (const page of pagesOf('tools', items(5), 2)) expect(page.text).toBe(JSON.stringify(page.value))
  })

  it('hands out cursors that are opaque (not the page number in clear) and url-safe', () => {
    const cursor = valueOf(pagesOf('tools', items(3), 1)[0]).nextCursor as string
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(cursor).not.toBe('1')
  })
})

describe('answerPage: a list request answered from its pages', () => {
  it('starts at the first page without a cursor', () => {
    const pages = pagesOf('tools', items(5), 2)
    expect(answerPage('tools/list', 'tools', pages, undefined)).toEqual(E.right(pages[0]))
  })

  it('follows the chain to the end and sees every item once, in order', () => {
    for (const [n, size] of [
      [1, 1],
      [5, 2],
      [6, 3],
      [7, 1],
      [10, 100],
    ] as const) {
      const seen = walk('tools', pagesOf('tools', items(n), size))
      expect(seen).toHaveLength(Math.max(1, Math.ceil(n / size)))
      expect(seen.flatMap((p) => p.tools as unknown[])).toEqual(items(n))
    }
  })

  it('refuses a cursor handed out for another list with -32602', () => {
    const resources = pagesOf('resources', items(5), 2)
    const tools = pagesOf('tools', items(5), 2)
    const foreign = valueOf(resources[0]).nextCursor
    const e = left(answerPage('tools/list', 'tools', tools, foreign))
    expect(e._tag).toBe('InvalidCursor')
    expect(errorCodes[e._tag]).toBe(-32602)
    expect(e.message).toBe(`tools/list: invalid cursor ${JSON.stringify(foreign)}`)
  })

  it('refuses a cursor that is not a string', () => {
    const pages = pagesOf('tools', items(5), 2)
    for (const cursor of [null, 1, 0, true]) {
      const e = left(answerPage('tools/list', 'tools', pages, cursor))
      expect(e._tag).toBe('InvalidCursor')
      expect(e.message).toBe(`tools/list: invalid cursor ${JSON.stringify(cursor)}`)
    }
    expect(left(answerPage('tools/list', 'tools', pages, {})).message).toBe('tools/list: invalid cursor (an object, not a string)')
    expect(left(answerPage('tools/list', 'tools', pages, ['x'])).message).toBe('tools/list: invalid cursor (an array, not a string)')
  })

  it('neither echoes a huge cursor nor stringifies a deeply nested one (a -32602, not a stack overflow)', () => {
    const pages = pagesOf('tools', items(5), 2)
    const huge = left(answerPage('tools/list', 'tools', pages, 'x'.repeat(1_000_000)))
    expect(huge.message).toBe(`tools/list: invalid cursor "${'x'.repeat(200)}…"`)
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i++) deep = { a: deep }
    expect(left(answerPage('tools/list', 'tools', pages, deep))).toEqual({ _tag: 'InvalidCursor', message: 'tools/list: invalid cursor (an object, not a string)' })
  })

  it('refuses forged cursors: garbage, page 0, leading zeros, signs, huge numbers, other encodings', () => {
    const pages = pagesOf('tools', items(50), 2)
    const real = valueOf(pages[0]).nextCursor as string
    const forged = [
      '',
      'garbage',
      '1',
      cursorText('tools', 0),
      cursorText('tools', '01'),
      cursorText('tools', '-1'),
      cursorText('tools', '+1'),
      cursorText('tools', '1.0'),
      cursorText('tools', ' 1'),
      cursorText('tools', '1e1'),
      cursorText('tools', 1_000_000_000),
      cursorText('tools', 'x'),
      cursorText('tool', 1),
      Buffer.from('emcp-tools:1').toString('base64'),
      `${real}=`,
      `${real}.`,
      ` ${real}`,
    ]
    for (const cursor of forged) {
      if (cursor === real) continue
      expect(E.isLeft(answerPage('tools/list', 'tools', pages, cursor)), JSON.stringify(cursor)).toBe(true)
    }
  })

  it('accepts the cursors it hands out, and only those', () => {
    const pages = pagesOf('tools', items(50), 2)
    expect(answerPage('tools/list', 'tools', pages, cursorText('tools', 3))).toEqual(E.right(pages[3]))
  })

  it('refuses a cursor past the end of a list that has shrunk since', () => {
    const before = pagesOf('tools', items(6), 2)
    const third = valueOf(before[1]).nextCursor
    expect(answerPage('tools/list', 'tools', before, third)).toEqual(E.right(before[2]))
    const after = pagesOf('tools', items(3), 2)
    const e = left(answerPage('tools/list', 'tools', after, third))
    expect(e._tag).toBe('InvalidCursor')
    expect(e.message).toBe(`tools/list: invalid cursor ${JSON.stringify(third)}`)
    // a cursor still within the shorter list goes on working
    expect(answerPage('tools/list', 'tools', after, valueOf(before[0]).nextCursor)).toEqual(E.right(after[1]))
  })
})

describe('pageIndex and pageAt, the two halves of answerPage', () => {
  it('reads no cursor as page 0, and a cursor as its page', () => {
    expect(pageIndex('tools/list', 'tools', undefined)).toEqual(E.right(0))
    expect(pageIndex('tools/list', 'tools', cursorText('tools', 1))).toEqual(E.right(1))
    expect(pageIndex('prompts/list', 'prompts', cursorText('prompts', 999_999_999))).toEqual(E.right(999_999_999))
  })

  it('reads a cursor without knowing the list: the page may not exist', () => {
    const cursor = cursorText('tools', 7)
    expect(pageIndex('tools/list', 'tools', cursor)).toEqual(E.right(7))
    const pages = pagesOf('tools', items(2), 1)
    expect(left(pageAt('tools/list', pages, 7, cursor))).toEqual({ _tag: 'InvalidCursor', message: `tools/list: invalid cursor ${JSON.stringify(cursor)}` })
    expect(pageAt('tools/list', pages, 1, cursor)).toEqual(E.right(pages[1]))
  })

  it('refuses by the method it was asked through', () => {
    expect(left(pageIndex('resources/templates/list', 'resourceTemplates', 'x')).message).toBe('resources/templates/list: invalid cursor "x"')
  })
})

describe('checkPageSize', () => {
  it('accepts no page size and positive integers', () => {
    for (const size of [undefined, 1, 2, 100, 2 ** 31]) expect(() => checkPageSize(size)).not.toThrow()
  })

  it('refuses zero, negatives, fractions and non-finite numbers with a TypeError that says what it got', () => {
    for (const size of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -0]) {
      expect(() => checkPageSize(size)).toThrow(TypeError)
      expect(() => checkPageSize(size)).toThrow(`emcp: pageSize must be a positive integer, got ${String(size)}`)
    }
  })

  it('refuses a page size of the wrong type (from untyped callers)', () => {
    expect(() => checkPageSize('10' as unknown as number)).toThrow('got 10')
  })
})
