/**
 * URI templates (RFC 6570) as MCP resource templates use them: level 1 (`{name}`), level 2
 * (`{+path}` reserved, `{#frag}` fragment) and the level-3 operators (`{?a,b}` query,
 * `{&c}` query continuation, `{/seg}` path segments, `{.ext}` labels, several variables per
 * expression). The variables are typed from the template literal; `match` reads them back
 * out of a URI (decoded), `expand` writes them in (encoded).
 *
 * Refused when a template is compiled, because they cannot be read back unambiguously (or
 * in time linear in the URI's length): level-4 modifiers (`{name*}`, `{name:3}`), `{;name}`,
 * a variable used twice, more than one `{+x}` variable, and an expression without a prefix
 * (`{x}`, `{+x}`) right after another expression.
 *
 * @example
 * import { expand, match, type UriParams } from 'emcp'
 * type P = UriParams<'file:///{dir}/{name}{?rev}'>          // { dir: string; name: string; rev?: string }
 * match('file:///{dir}/{name}{?rev}', 'file:///docs/a%20b.md?rev=2') // Some({ dir: 'docs', name: 'a b.md', rev: '2' })
 * expand('file:///{dir}/{name}{?rev}', { dir: 'docs', name: 'a b.md' }) // 'file:///docs/a%20b.md'
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'

// ---------------------------------------------------------------------------------------
// model

/** The operators whose variables are optional: their expansion carries its own prefix. */
type OptionalOperator = '?' | '&' | '#'

/** The operators (besides none) whose variables are required. */
type RequiredOperator = '+' | '/' | '.'

/** The variable names of one expression body (`a,b` gives `'a' | 'b'`). */
type NamesOf<B extends string> = B extends `${infer H},${infer R}` ? H | NamesOf<R> : B

/** Walks the template once, collecting required and optional names. */
type Walk<T extends string, Req extends string, Opt extends string> = T extends `${string}{${infer X}}${infer R}`
  ? X extends `${OptionalOperator}${infer B}`
    ? Walk<R, Req, Opt | NamesOf<B>>
    : X extends `${RequiredOperator}${infer B}`
      ? Walk<R, Req | NamesOf<B>, Opt>
      : Walk<R, Req | NamesOf<X>, Opt>
  : { [K in keyof ({ [K in Req]: string } & { [K in Opt]?: string })]: ({ [K in Req]: string } & { [K in Opt]?: string })[K] }

/**
 * The variables of a template literal: required for `{x}`, `{+x}`, `{/x}`, `{.x}`; optional
 * for `{?x}`, `{&x}`, `{#x}`. A template typed only as `string` gives a string record.
 */
export type UriParams<T extends string> = string extends T ? { readonly [name: string]: string } : Walk<T, never, never>

/** A compiled template: parsed once, matched and expanded many times. */
export interface UriTemplate<T extends string = string> {
  /** The template text. */
  readonly template: T
  /** Every variable, in the order of the template. */
  readonly variables: ReadonlyArray<string>
  /** The variables a URI must carry (all but those of `?`, `&` and `#` expressions). */
  readonly required: ReadonlyArray<string>
  /** The anchored regular expression `match` runs: one capture group per expression (linear in the URI's length). */
  readonly pattern: RegExp
  /** Reads the variables out of a URI (percent-decoded); `None` when it does not match. */
  readonly match: (uri: string) => O.Option<UriParams<T>>
  /** Writes the variables into the template (percent-encoded as the operator asks). */
  // method syntax: a template of a literal type stays assignable to UriTemplate<string>
  expand(params: UriParams<T>): string
}

/** One `{...}` expression. */
interface Expression {
  readonly operator: '' | '+' | '#' | '?' | '&' | '/' | '.'
  readonly names: ReadonlyArray<string>
}

/** A template split into literal text and expressions. */
type Part = string | Expression

// ---------------------------------------------------------------------------------------
// constructors

/** Compiles a template; an invalid or unsupported one is a `TypeError` that says why. */
export const uriTemplate = <const T extends string>(template: T): UriTemplate<T> => {
  const cached = cache.get(template)
  if (cached !== undefined) return cached as unknown as UriTemplate<T>
  const parsed = parseTemplate(template)
  if (E.isLeft(parsed)) throw new TypeError(`emcp: invalid URI template ${JSON.stringify(template)}: ${parsed.left}`)
  const compiled = compile(template, parsed.right)
  if (cache.size >= cacheLimit) cache.clear()
  cache.set(template, compiled as unknown as UriTemplate)
  return compiled
}

// ---------------------------------------------------------------------------------------
// functions

/** Reads a URI's variables by a template; `None` when it does not match (or decodes badly). */
export const match = <const T extends string>(template: T, uri: string): O.Option<UriParams<T>> => uriTemplate(template).match(uri)

/** Builds a URI from a template and its variables; an absent optional variable adds nothing. */
export const expand = <const T extends string>(template: T, params: NoInfer<UriParams<T>>): string => uriTemplate(template).expand(params)

// ---------------------------------------------------------------------------------------
// internals

const cache = new Map<string, UriTemplate>()
const cacheLimit = 1000

const operators = new Set(['+', '#', '?', '&', '/', '.'])

/** RFC 6570 varname: varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded. */
const varName = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/

/** Splits a template into literals and expressions, or says what is wrong with it. */
const parseTemplate = (template: string): E.Either<string, ReadonlyArray<Part>> => {
  const parts: Part[] = []
  const seen = new Set<string>()
  let reserved = 0
  let at = 0
  while (at < template.length) {
    const open = template.indexOf('{', at)
    const close = template.indexOf('}', at)
    if (close !== -1 && (open === -1 || close < open)) return E.left(`"}" at ${close} closes nothing`)
    if (open === -1) {
      parts.push(template.slice(at))
      break
    }
    if (open > at) parts.push(template.slice(at, open))
    const end = template.indexOf('}', open)
    if (end === -1) return E.left(`"{" at ${open} is never closed`)
    const body = template.slice(open + 1, end)
    const first = body.charAt(0)
    const operator = (operators.has(first) ? first : '') as Expression['operator']
    if (operator === '' && /^[=,!@|;]/.test(body))
      return E.left(`the operator "${first}" in {${body}} is not supported (use none, +, #, ?, &, / or .)`)
    const names = body.slice(operator.length).split(',')
    for (const name of names) {
      if (/[*:]/.test(name)) return E.left(`{${body}}: level-4 modifiers (* and :n) are not supported`)
      if (!varName.test(name) || name === '__proto__') return E.left(`{${body}}: ${JSON.stringify(name)} is not a variable name`)
      if (seen.has(name)) return E.left(`the variable ${name} occurs twice`)
      seen.add(name)
    }
    const last = parts[parts.length - 1]
    // matching must stay linear in the URI's length, and unambiguous
    if ((operator === '' || operator === '+') && typeof last === 'object')
      return E.left(`{${body}} follows another expression with nothing between them: where one ends cannot be told`)
    if (operator === '+' && (reserved += names.length) > 1)
      return E.left(`{${body}}: a template may have one reserved variable ({+x}); two could split a URI in many ways`)
    // `{?a}{&b}` is one query: its pairs may come in any order
    if (operator === '&' && typeof last === 'object' && (last.operator === '?' || last.operator === '&'))
      parts[parts.length - 1] = { operator: last.operator, names: [...last.names, ...names] }
    else parts.push({ operator, names })
    at = end + 1
  }
  return E.right(parts)
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/**
 * The pattern of one expression; each expression is one capture group. Matching stays linear
 * in the URI's length (a ReDoS analyzer checks these in the tests): a simple variable right
 * after literal text does not take the text's last character (in `{b}.{c}`, `c` has no dot,
 * so the dots of a long `b` are not tried one by one against a long `c`; the split found is
 * the same, `b` the longest), query values do not take `?` (expansion encodes it), and a
 * fragment that ends the template takes the rest at once.
 */
const patternOf = (x: Expression, before: Part | undefined, last: boolean): string => {
  const n = x.names.length
  const repeat = (unit: string, sep: string): string => [unit, ...Array<string>(n - 1).fill(`${sep}${unit}`)].join('')
  switch (x.operator) {
    case '': {
      const edge = typeof before === 'string' ? before.charAt(before.length - 1) : ''
      const not = `/?#${'/?#,'.includes(edge) ? '' : escapeClass(edge)}`
      return n === 1 ? `([^${not}]+)` : `(${repeat(`[^${not},]+`, ',')})`
    }
    case '+':
      return n === 1 ? '(.+?)' : `(${repeat('[^,]+?', ',')})`
    case '#':
      return last ? '(?:#(.*))?' : '(?:#(.*?))?'
    case '/':
      return `(${repeat('/[^/?#]+', '')})`
    case '.':
      return `(${repeat('\\.[^/?#.]+', '')})`
    case '?':
    case '&': {
      const pair = `(?:${x.names.map(escapeRegExp).join('|')})(?:=[^&#?]*)?`
      return `(?:\\${x.operator}(${pair}(?:&${pair})*)?)?`
    }
  }
}

/** A character as it stands inside a character class. */
const escapeClass = (c: string): string => c.replace(/[\\\]^-]/g, '\\$&')

const decode = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s)
  } catch {
    return undefined
  }
}

/** Reads one captured expression into `out`; false when a value does not decode or repeats. */
const read = (x: Expression, captured: string | undefined, out: Record<string, string>): boolean => {
  if (captured === undefined) return true
  if (x.operator === '?' || x.operator === '&') {
    if (captured === '') return true
    // pair by pair, without splitting first: a repeated name ends the walk at once
    for (let at = 0; at <= captured.length; ) {
      const amp = captured.indexOf('&', at)
      const end = amp === -1 ? captured.length : amp
      const pair = captured.slice(at, end)
      at = end + 1
      const eq = pair.indexOf('=')
      const name = eq === -1 ? pair : pair.slice(0, eq)
      const value = decode(eq === -1 ? '' : pair.slice(eq + 1))
      if (value === undefined || Object.hasOwn(out, name)) return false
      out[name] = value
    }
    return true
  }
  const pieces =
    x.operator === '/' || x.operator === '.'
      ? captured.slice(1).split(x.operator)
      : x.operator === '#'
        ? splitAtMost(captured, x.names.length)
        : captured.split(',', x.names.length)
  for (let i = 0; i < pieces.length && i < x.names.length; i++) {
    const value = decode(pieces[i] as string)
    if (value === undefined) return false
    out[x.names[i] as string] = value
  }
  return true
}

/** Splits on commas into at most `n` pieces, the last keeping the rest (only the first n - 1 commas are looked for). */
const splitAtMost = (s: string, n: number): string[] => {
  const pieces: string[] = []
  let at = 0
  for (let comma = s.indexOf(','); comma !== -1 && pieces.length < n - 1; comma = s.indexOf(',', at)) {
    pieces.push(s.slice(at, comma))
    at = comma + 1
  }
  pieces.push(s.slice(at))
  return pieces
}

const utf8 = new TextEncoder()

/** Percent-encodes every character outside `keep` (a character class), byte by byte in UTF-8. */
const encoder = (keep: RegExp) => (value: string): string =>
  value.replace(keep, (c) => (c.length === 3 && c.startsWith('%') ? c : Array.from(utf8.encode(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')))

/** Unreserved characters only (`{x}`, `{/x}`, `{.x}`, `{?x}`, `{&x}`). */
const encodeUnreserved = encoder(/[^A-Za-z0-9\-._~]/gu)

/** Unreserved and reserved characters and existing percent-triplets (`{+x}`, `{#x}`). */
const encodeReserved = encoder(/%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]|%/gu)

/** The expansion of one expression (RFC 6570 §3.2). */
const expandOne = (x: Expression, params: { readonly [name: string]: string | undefined }): string => {
  const defined = x.names.flatMap((name) => {
    const v = params[name]
    return v === undefined ? [] : [[name, String(v)] as const]
  })
  if (defined.length === 0) return ''
  switch (x.operator) {
    case '':
      return defined.map(([, v]) => encodeUnreserved(v)).join(',')
    case '+':
      return defined.map(([, v]) => encodeReserved(v)).join(',')
    case '#':
      return `#${defined.map(([, v]) => encodeReserved(v)).join(',')}`
    case '/':
    case '.':
      return defined.map(([, v]) => `${x.operator}${encodeUnreserved(v)}`).join('')
    case '?':
    case '&':
      return `${x.operator}${defined.map(([k, v]) => `${k}=${encodeUnreserved(v)}`).join('&')}`
  }
}

const compile = <T extends string>(template: T, parts: ReadonlyArray<Part>): UriTemplate<T> => {
  const expressions = parts.filter((p): p is Expression => typeof p !== 'string')
  const pattern = new RegExp(`^${parts.map((p, i) => (typeof p === 'string' ? escapeRegExp(p) : patternOf(p, parts[i - 1], i === parts.length - 1))).join('')}$`, 's')
  const variables = expressions.flatMap((x) => x.names)
  const required = expressions.filter((x) => x.operator !== '?' && x.operator !== '&' && x.operator !== '#').flatMap((x) => x.names)
  return {
    template,
    variables,
    required,
    pattern,
    match: (uri) => {
      const m = pattern.exec(uri)
      if (m === null) return O.none
      const out: Record<string, string> = {}
      for (let i = 0; i < expressions.length; i++) if (!read(expressions[i] as Expression, m[i + 1], out)) return O.none
      return O.some(out as UriParams<T>)
    },
    expand: (params) =>
      parts.map((p) => (typeof p === 'string' ? p : expandOne(p, params as { readonly [name: string]: string | undefined }))).join(''),
  }
}
