/**
 * The lists of a mount (`tools/list`, `prompts/list`, `resources/list`,
 * `resources/templates/list`): every part's list for the session, each entry renamed into its
 * part's namespace (once per page the part answers, not per request), filtered by what the
 * caller may see, and paged. The pages of one view (one set of visible entries) are
 * serialised once and kept: two callers who see the same entries share them, and a request
 * rebuilds nothing but the test of each entry. Internal.
 *
 * @example
 * import { mergedList } from './lists.js'
 * // const list = mergedList(spec, renamedLists(spec, parts), 50, visible)
 * // list(request, session) // Right(page), now or later
 */
import * as E from 'fp-ts/lib/Either.js'
import { all, isThenable, map, type Eventually } from '../util/eventually.js'
import type { Answer } from '../server/feature.js'
import { answerPage, pagesOf } from '../server/pages.js'
import type { Session } from '../server/session.js'
import type { RawJson, Request, RpcError } from '../protocol/jsonrpc.js'
import { entriesOf, firstPage, gather, type Pages, type Part } from './parts.js'
import { clip } from '../util/clip.js'

// ---------------------------------------------------------------------------------------
// model

/** A listed entry, as JSON. */
export type Entry = { readonly [key: string]: unknown }

/** One kind of list. */
export interface ListSpec {
  readonly method: string
  /** The result's key: `tools`, `prompts`, `resources`, `resourceTemplates`. */
  readonly key: string
  /** True when the part serves this list at all (its capabilities say so). */
  readonly serves: (part: Part) => boolean
  /** The entry as the whole lists it. */
  readonly rename: (part: Part, entry: Entry) => Entry
  /** What makes an entry unique in the list: a name, a URI. */
  readonly idOf: (entry: Entry) => string
}

/** Whether a session sees an entry of a part (the entry as the whole lists it). */
export type Visible = (part: Part, entry: Entry, session: Session) => boolean

/** A part's entries for one session, as the whole lists them, before visibility. */
export interface Listed {
  readonly part: Part
  readonly entries: ReadonlyArray<Entry>
}

// ---------------------------------------------------------------------------------------
// functions

/** The views kept per list; past this many the oldest is dropped. */
const maxViews = 256

/** Every part's entries for one session, and what identifies them: the pages the parts answered (the same pages, the same lists). */
export interface Read {
  readonly lists: ReadonlyArray<Listed>
  readonly key: string
}

/** What reads one list of every part for a session, renamed. */
export type ListReader = (session: Session) => Eventually<E.Either<RpcError, Read>>

/** Reads and renames the entries of one list from every part that serves it; the first of an id wins. */
export const renamedLists = (spec: ListSpec, parts: ReadonlyArray<Part>): ListReader => {
  const renamed = new WeakMap<object, ReadonlyArray<Entry>>()
  const servers = parts.filter(spec.serves)
  const pageEntries = (part: Part, page: object): ReadonlyArray<Entry> => {
    let out = renamed.get(page)
    if (out === undefined) renamed.set(page, (out = entriesOf(page, spec.key).map((e) => spec.rename(part, e))))
    return out
  }
  // a clash is told once (on stderr), not per request: the first part keeps the name
  const told = new Set<string>()
  const clash = (id: string, first: Part, then: Part): void => {
    if (told.has(id) || told.size > 1000) return
    told.add(id)
    console.error(`emcp: mount: ${spec.key} ${clip(id)} is served by ${first.label} and ${then.label}: the first keeps it`)
  }
  /** The merged lists of the pages answered: once per set of pages (a part answers the same page objects until it changes). */
  const merge = (pages: ReadonlyArray<Pages>): ReadonlyArray<Listed> => {
    const seen = new Map<string, Part>()
    return servers.map((part, i) => {
      const entries: Entry[] = []
      for (const page of pages[i] as Pages)
        for (const e of pageEntries(part, page)) {
          const id = spec.idOf(e)
          const first = seen.get(id)
          if (first !== undefined) {
            if (first !== part) clash(id, first, part)
            continue
          }
          seen.set(id, part)
          entries.push(e)
        }
      return { part, entries }
    })
  }
  const merged = new Map<string, ReadonlyArray<Listed>>()
  // the pages answered last time, and what was read of them: the common case, every request alike, without a key to build
  let last: { readonly pages: ReadonlyArray<Pages>; readonly read: E.Right<Read> } | undefined
  const settle = (outs: ReadonlyArray<E.Either<RpcError, Pages>>): E.Either<RpcError, Read> => {
    const failed = outs.find(E.isLeft)
    if (failed !== undefined) return failed
    const pages = outs.map((o) => (o as E.Right<Pages>).right)
    if (last !== undefined && samePages(last.pages, pages)) return last.read
    // the key is as long as the pages are many, not the entries
    const key = pages.map((ps) => ps.map(serialOf).join('.')).join('|')
    let lists = merged.get(key)
    if (lists === undefined) {
      if (merged.size >= maxViews) merged.delete(merged.keys().next().value as string)
      merged.set(key, (lists = merge(pages)))
    }
    const read: E.Right<Read> = { _tag: 'Right', right: { lists, key } }
    last = { pages, read }
    return read
  }
  return (session: Session): Eventually<E.Either<RpcError, Read>> => {
    // the common case: every part answers now, in one page, the very page it answered last
    // time; the read is then the last one, with no array, closure or key made
    const known = last
    let i = 0
    let first: Answer | undefined
    for (; i < servers.length; i++) {
      first = firstPage(servers[i] as Part, spec.method, session)
      const had = known?.pages[i]
      if (had === undefined || had.length !== 1 || isThenable(first) || E.isLeft(first) || first.right !== had[0]) break
    }
    if (known !== undefined && i === servers.length) return known.read
    // otherwise each part's pages, the parts already asked not asked again
    const outs = servers.map((p, j) => (j < i ? E.right((known as { readonly pages: ReadonlyArray<Pages> }).pages[j] as Pages) : gather(p, spec.method, spec.key, session, j === i ? first : undefined)))
    return map(all(outs), settle)
  }
}

/** True when two reads answered the very same page objects. */
const samePages = (a: ReadonlyArray<Pages>, b: ReadonlyArray<Pages>): boolean =>
  a.length === b.length && a.every((ps, i) => ps.length === (b[i] as Pages).length && ps.every((p, j) => p === (b[i] as Pages)[j]))

/**
 * The list method of a mount: the merged entries a session sees, paged from the cache of its
 * view. While `everyone(session)` says that no rule or switch hides anything from it, the view is all the
 * entries of the pages the parts answered, keyed by those pages (a request costs what the
 * parts' own lists cost, and a lookup); otherwise each entry is tested for the session.
 * `everyone` is asked per session: one session's switches leave the others on that path.
 * `alike` names the view of a session that sees what every other such session sees (tag
 * rules, no `enabled(ctx)`, no switch of its own): its entries are tested once per read and
 * view, not per request.
 */
export const mergedList = (
  spec: ListSpec,
  read: ListReader,
  pageSize: number | undefined,
  visible: Visible,
  everyone: (session: Session) => boolean = () => false,
  alike: (session: Session) => object | undefined = () => undefined,
): ((req: Request, session: Session) => Answer) => {
  // a view is keyed by the entry objects it shows (numbered once each): the renamed entries of a
  // page the part answers again are the same objects, so an unchanged view finds its pages
  const views = new Map<string, ReadonlyArray<RawJson>>()
  const pagesFor = (key: string, shown: () => ReadonlyArray<Entry>): ReadonlyArray<RawJson> => {
    let pages = views.get(key)
    if (pages === undefined) {
      if (views.size >= maxViews) views.delete(views.keys().next().value as string)
      views.set(key, (pages = pagesOf(spec.key, shown(), pageSize)))
    }
    return pages
  }
  // the pages of the last read everyone saw whole: a request alike finds them without a key
  let whole: { readonly read: Read; readonly pages: ReadonlyArray<RawJson> } | undefined
  // the pages of the last read as the sessions alike see it (tag rules, no switch of their own), in that view
  let same: { readonly read: Read; readonly view: object; readonly pages: ReadonlyArray<RawJson> } | undefined
  const answer = (out: E.Either<RpcError, Read>, req: Request, session: Session): E.Either<RpcError, unknown> => {
    if (E.isLeft(out)) return out
    const { lists, key } = out.right
    if (everyone(session)) {
      if (whole?.read !== out.right) whole = { read: out.right, pages: pagesFor(`all:${key}`, () => lists.flatMap((l) => l.entries)) }
      return answerPage(spec.method, spec.key, whole.pages, req.params?.cursor)
    }
    const view = alike(session)
    if (view !== undefined) {
      // each entry tested once per read and view, not per request: the sessions alike see the same
      if (same?.read !== out.right || same.view !== view) {
        const shown = lists.flatMap(({ part, entries }) => entries.filter((e) => visible(part, e, session)))
        same = { read: out.right, view, pages: pagesFor(shown.map(serialOf).join(','), () => shown) }
      }
      return answerPage(spec.method, spec.key, same.pages, req.params?.cursor)
    }
    const shown = lists.flatMap(({ part, entries }) => entries.filter((e) => visible(part, e, session)))
    return answerPage(spec.method, spec.key, pagesFor(shown.map(serialOf).join(','), () => shown), req.params?.cursor)
  }
  // a read that is here already is answered without a closure made per request
  return (req, session) => {
    const out = read(session)
    return isThenable(out) ? (out as Promise<E.Either<RpcError, Read>>).then((o) => answer(o, req, session)) : answer(out as E.Either<RpcError, Read>, req, session)
  }
}

/** Numbers objects (entries, pages) once each, for the keys of views. */
const serials = new WeakMap<object, number>()
let nextSerial = 0
const serialOf = (o: object): number => {
  let n = serials.get(o)
  if (n === undefined) serials.set(o, (n = nextSerial++))
  return n
}
