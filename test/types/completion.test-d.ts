/**
 * Type tests of completers (src/features/completion.ts): a `Completer<P>` reads the arguments the
 * client already resolved, typed by `P` (each one optional, a string), and answers a list of
 * strings or a `Completion`, now or as a Promise.
 */
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import type { Completer, Completion, CompletionContext, UriParams } from 'emcp'

type Trip = { country: string; city: string; nights?: string }

const city: Completer<Trip> = (value, context) => {
  expectType<string>(value)
  expectType<CompletionContext<Trip>>(context)
  expectType<string | undefined>(context.arguments.country)
  expectType<string | undefined>(context.arguments.nights)
  expectError(context.arguments.airport)
  expectError((context.arguments.country = 'Norway'))
  return context.arguments.country === 'Japan' ? ['Osaka'] : ['Oslo']
}
expectType<Completer<Trip>>(city)
expectType<{ readonly country?: string; readonly city?: string; readonly nights?: string }>({} as CompletionContext<Trip>['arguments'])

// every form of answer
expectAssignable<Completer<Trip>>(() => [])
expectAssignable<Completer<Trip>>(() => ['a'] as ReadonlyArray<string>)
expectAssignable<Completer<Trip>>(() => ({ values: ['a'], total: 3, hasMore: true }))
expectAssignable<Completer<Trip>>(async () => ['a'])
expectAssignable<Completer<Trip>>(async (value: string) => ({ values: [value] }) satisfies Completion)
expectAssignable<Completer<Trip>>(() => Promise.resolve({ values: [] }))
expectNotAssignable<Completer<Trip>>(() => [1, 2])
expectNotAssignable<Completer<Trip>>(() => 'Oslo')
expectNotAssignable<Completer<Trip>>(() => ({ total: 3 }))
expectNotAssignable<Completer<Trip>>(async () => undefined)
expectNotAssignable<Completer<Trip>>((value: number) => [String(value)])

// typed by a template's variables
const rev: Completer<UriParams<'docs://{slug}{?rev}'>> = (_value, context) => {
  expectType<string | undefined>(context.arguments.slug)
  expectType<string | undefined>(context.arguments.rev)
  expectError(context.arguments.page)
  return []
}
expectType<Completer<{ slug: string; rev?: string }>>(rev)

// a completer for fewer arguments fits where more are known
expectAssignable<Completer<Trip>>({} as Completer<{ country: string }>)
expectAssignable<Completer<Trip>>({} as Completer<{}>)
