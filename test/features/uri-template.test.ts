import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { expand, match, uriTemplate } from '../../src/index.js'

const some = <A>(o: O.Option<A>): A | undefined => (O.isSome(o) ? o.value : undefined)

describe('uri-template: match (RFC 6570 levels 1-3, read back)', () => {
  it('reads simple variables, percent-decoded; {name} never spans a "/"', () => {
    expect(some(match('file:///{dir}/{name}', 'file:///docs/a%20b.md'))).toEqual({ dir: 'docs', name: 'a b.md' })
    expect(some(match('file:///{dir}/{name}', 'file:///docs/a%2Fb'))).toEqual({ dir: 'docs', name: 'a/b' })
    expect(match('file:///{name}', 'file:///docs/a.md')).toEqual(O.none)
    expect(match('users://{id}/profile', 'users:///profile')).toEqual(O.none) // required: never empty
  })

  it('reads UTF-8 percent-encoding and refuses malformed escapes', () => {
    expect(some(match('x://{w}', 'x://caf%C3%A9'))).toEqual({ w: 'café' })
    expect(some(match('x://{w}', 'x://café'))).toEqual({ w: 'café' })
    expect(match('x://{w}', 'x://100%')).toEqual(O.none)
    expect(match('x://{w}', 'x://%E0%A4')).toEqual(O.none)
  })

  it('lets {+path} span "/" and stop at a query or fragment the template reads', () => {
    expect(some(match('file:///{+path}', 'file:///a/b/c.txt'))).toEqual({ path: 'a/b/c.txt' })
    expect(some(match('repo://{+path}/meta', 'repo://a/b/meta'))).toEqual({ path: 'a/b' })
    expect(some(match('file:///{+path}{?rev}', 'file:///a/b?rev=3'))).toEqual({ path: 'a/b', rev: '3' })
    expect(some(match('file:///{+path}{#frag}', 'file:///a/b#sec,2'))).toEqual({ path: 'a/b', frag: 'sec,2' })
  })

  it('reads {?a,b} in any order, each optional, and refuses unknown or repeated keys', () => {
    const t = 'search://items{?q,page}'
    expect(some(match(t, 'search://items'))).toEqual({})
    expect(some(match(t, 'search://items?q=a%26b'))).toEqual({ q: 'a&b' })
    expect(some(match(t, 'search://items?page=2&q=x'))).toEqual({ q: 'x', page: '2' })
    expect(some(match(t, 'search://items?q='))).toEqual({ q: '' })
    expect(some(match(t, 'search://items?q'))).toEqual({ q: '' })
    expect(match(t, 'search://items?q=1&q=2')).toEqual(O.none)
    expect(match(t, 'search://items?other=1')).toEqual(O.none)
    expect(match(t, 'search://items?query=1')).toEqual(O.none)
  })

  it('reads {?a}{&b} as one query, and {&c} after a literal query', () => {
    expect(some(match('x://y{?a}{&b}', 'x://y?b=2&a=1'))).toEqual({ a: '1', b: '2' })
    expect(some(match('api://list?format=json{&page}', 'api://list?format=json&page=4'))).toEqual({ page: '4' })
    expect(some(match('api://list?format=json{&page}', 'api://list?format=json'))).toEqual({})
  })

  it('reads {#frag}, {/a,b}, {.ext} and multi-variable {a,b}', () => {
    expect(some(match('doc://x{#frag}', 'doc://x'))).toEqual({})
    expect(some(match('doc://x{#frag}', 'doc://x#top'))).toEqual({ frag: 'top' })
    expect(some(match('git://repo{/owner,name}', 'git://repo/ada/engine'))).toEqual({ owner: 'ada', name: 'engine' })
    expect(some(match('file:///{base}{.ext}', 'file:///report.pdf'))).toEqual({ base: 'report', ext: 'pdf' })
    expect(some(match('geo://{lat,lon}', 'geo://59.9,10.7'))).toEqual({ lat: '59.9', lon: '10.7' })
    expect(match('geo://{lat,lon}', 'geo://59.9')).toEqual(O.none)
  })

  it('matches literal text exactly, regex characters included', () => {
    expect(some(match('a+b://x.y/{id}', 'a+b://x.y/1'))).toEqual({ id: '1' })
    expect(match('a+b://x.y/{id}', 'aab://xzy/1')).toEqual(O.none)
    expect(match('file:///{name}', 'http:///x')).toEqual(O.none)
    expect(some(match('static://readme', 'static://readme'))).toEqual({})
  })
})

describe('uri-template: expand (RFC 6570 §3.2)', () => {
  it('encodes simple values to unreserved characters', () => {
    expect(expand('file:///{dir}/{name}', { dir: 'my docs', name: 'a/b?c' })).toBe('file:///my%20docs/a%2Fb%3Fc')
    expect(expand('x://{w}', { w: "café!'()*" })).toBe('x://caf%C3%A9%21%27%28%29%2A')
  })

  it('keeps reserved characters and percent-triplets in {+x} and {#x}', () => {
    expect(expand('file:///{+path}', { path: 'a/b c/%41?' })).toBe('file:///a/b%20c/%41?')
    expect(expand('file:///{+path}', { path: '100%' })).toBe('file:///100%25')
    expect(expand('doc://x{#frag}', { frag: 'a b,c' })).toBe('doc://x#a%20b,c')
  })

  it('leaves out absent optional variables, and the whole query when all are absent', () => {
    const t = 'file:///{dir}/{name}{?rev,mode}'
    expect(expand(t, { dir: 'd', name: 'n' })).toBe('file:///d/n')
    expect(expand(t, { dir: 'd', name: 'n', mode: 'r w' })).toBe('file:///d/n?mode=r%20w')
    expect(expand(t, { dir: 'd', name: 'n', rev: '', mode: 'x' })).toBe('file:///d/n?rev=&mode=x')
    expect(expand('x://y{?a}{&b}', { b: '2' })).toBe('x://y?b=2')
    expect(expand('git://repo{/owner,name}{.ext}', { owner: 'o', name: 'n', ext: 'git' })).toBe('git://repo/o/n.git')
  })

  it('round-trips through match', () => {
    const t = uriTemplate('notes://{user}/{+path}{?rev}{#frag}')
    const params = { user: 'ädä lovelace', path: 'x/y z', rev: '1&2', frag: 'h' }
    expect(some(t.match(t.expand(params)))).toEqual(params)
  })
})

describe('uri-template: matching time', () => {
  it('stays fast on long URIs that do not match (no catastrophic backtracking)', () => {
    const cases: Array<[string, string]> = [
      ['x://{+a}/{b}/{c}/z', `x://${'/'.repeat(100_000)}`],
      ['x://{+a}/{b}/{c}/z', `x://${'a/'.repeat(50_000)}`],
      ['x://{a}{.b}', `x://${'.'.repeat(100_000)}/`],
      ['x://{+a}/z{?q,r}', `x://${'?q=1&'.repeat(20_000)}`],
      ['x://{a,b,c}', `x://${','.repeat(100_000)}`],
    ]
    for (const [template, uri] of cases) {
      const start = performance.now()
      const matched = O.isSome(match(template, uri))
      expect({ template, matched, fast: performance.now() - start < 500 }).toEqual({ template, matched: false, fast: true })
    }
  })
})

describe('uri-template: the splits linear matching keeps', () => {
  it('a variable before a literal is the longest that leaves the next one a match', () => {
    expect(some(match('x://{b}.{c}', 'x://archive.tar.gz'))).toEqual({ b: 'archive.tar', c: 'gz' })
    expect(some(match('x://{b}-{c}/{d}', 'x://a-b-c/d'))).toEqual({ b: 'a-b', c: 'c', d: 'd' })
  })

  it('a query value holds no raw "?" (expansion encodes it), and a fragment at the end takes the rest', () => {
    expect(O.isNone(match('x://{a}{?q}', 'x://a?q=what?'))).toBe(true)
    expect(some(match('x://{a}{?q}', expand('x://{a}{?q}', { a: 'a', q: 'what?' })))).toEqual({ a: 'a', q: 'what?' })
    expect(some(match('x://{a}{#f}', 'x://a#b#c,d'))).toEqual({ a: 'a', f: 'b#c,d' })
  })
})

describe('uri-template: compiling', () => {
  it('lists the variables and which are required', () => {
    const t = uriTemplate('file:///{dir}/{+rest}{?rev}{#f}')
    expect(t.variables).toEqual(['dir', 'rest', 'rev', 'f'])
    expect(t.required).toEqual(['dir', 'rest'])
    expect(uriTemplate('file:///{dir}/{+rest}{?rev}{#f}')).toBe(t) // compiled once
  })

  it('refuses what it cannot read back, saying why', () => {
    expect(() => uriTemplate('x://{a')).toThrow(/never closed/)
    expect(() => uriTemplate('x://a}')).toThrow(/closes nothing/)
    expect(() => uriTemplate('x://{a*}')).toThrow(/level-4/)
    expect(() => uriTemplate('x://{a:3}')).toThrow(/level-4/)
    expect(() => uriTemplate('x://{;a}')).toThrow(/operator ";"/)
    expect(() => uriTemplate('x://{}')).toThrow(/not a variable name/)
    expect(() => uriTemplate('x://{a b}')).toThrow(/not a variable name/)
    expect(() => uriTemplate('x://{a}/{a}')).toThrow(/occurs twice/)
    expect(() => match('x://{__proto__}', 'x://y')).toThrow(TypeError)
    expect(() => uriTemplate('x://{a}{b}')).toThrow(/nothing between them/)
    expect(() => uriTemplate('x://{a}{+b}')).toThrow(/nothing between them/)
    expect(() => uriTemplate('x://{+a}/{+b}')).toThrow(/one reserved variable/)
    expect(() => uriTemplate('x://{+a,b}')).toThrow(/one reserved variable/)
    expect(uriTemplate('x://{a}{.b}{/c}{?d}{&e}{#f}').variables).toHaveLength(6)
  })
})
