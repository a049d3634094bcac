/**
 * A set for values that come and go once each, fast, for as long as the process lives (the
 * calls running on a server): a doubly linked list, where adding appends a link and removing
 * unlinks it and clears it, O(1) both, nothing left behind. A `Set` used so (one add and one
 * delete per HTTP call) kept each finished call's objects alive through young-generation
 * collections: under load, about 3.3 KB of every stateless tool call was promoted to the old
 * generation, which cost 4 to 11 µs of the main thread's CPU per PostgreSQL tool call and 9 to
 * 17 µs in all (measured in two runs; the likely cause: V8 rebuilds a `Set`'s table as entries
 * come and go, and a replaced table, already old, still refers to members long gone). A removed
 * link refers to nothing.
 *
 * @example
 * import { links } from './links.js'
 * const running = links<string>()
 * const link = running.add('call 1')
 * for (const v of running.values()) console.log(v) // 'call 1'
 * running.remove(link)
 */
// ---------------------------------------------------------------------------------------
// model

/** One member's place in the list: give it back to `remove`. */
export interface Link<A> {
  readonly value: A
}

/** Values in the order they were added, each removed by its link. */
export interface Links<A> {
  /** Appends `value`; its link removes it. */
  readonly add: (value: A) => Link<A>
  /** Removes the member of `link` (again, or a link of another list: nothing happens). */
  readonly remove: (link: Link<A>) => void
  /** The members now, first added first (a copy: removing while walking it is safe). */
  readonly values: () => A[]
  /** How many members there are. */
  readonly size: () => number
}

// ---------------------------------------------------------------------------------------
// constructors

/** An empty list. */
export const links = <A>(): Links<A> => {
  const list = new List<A>()
  return {
    add: (value) => list.add(value),
    remove: (link) => list.remove(link),
    values: () => list.values(),
    size: () => list.count,
  }
}

// ---------------------------------------------------------------------------------------
// internals

class Node<A> implements Link<A> {
  prev: Node<A> | undefined = undefined
  next: Node<A> | undefined = undefined
  /** The list it is in; none once removed. A link of another list, or removed already, is left alone. */
  owner: List<A> | undefined
  constructor(
    readonly value: A,
    owner: List<A>,
  ) {
    this.owner = owner
  }
}

class List<A> {
  head: Node<A> | undefined = undefined
  tail: Node<A> | undefined = undefined
  count = 0

  add(value: A): Node<A> {
    const n = new Node(value, this)
    if (this.tail === undefined) this.head = n
    else {
      this.tail.next = n
      n.prev = this.tail
    }
    this.tail = n
    this.count++
    return n
  }

  remove(link: Link<A>): void {
    // only this list's own links, once: anything else would unlink another list's neighbours
    if (!(link instanceof Node) || link.owner !== this) return
    const n = link as Node<A>
    n.owner = undefined
    if (n.prev === undefined) this.head = n.next
    else n.prev.next = n.next
    if (n.next === undefined) this.tail = n.prev
    else n.next.prev = n.prev
    // a removed link refers to nothing: it keeps no neighbour alive however long it lives
    n.prev = n.next = undefined
    this.count--
  }

  values(): A[] {
    const out: A[] = []
    for (let n = this.head; n !== undefined; n = n.next) out.push(n.value)
    return out
  }
}
