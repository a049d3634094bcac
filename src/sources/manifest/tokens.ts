/**
 * How much of a model's context a tool listing takes, estimated without a tokenizer: about
 * one token per four characters of compact JSON, which is close for English text and
 * schemas (real tokenizers differ by some tens of percent). A budget turns the estimate
 * into a warning.
 *
 * @example
 * import { listingBudget } from 'emcp/manifest'
 * const b = listingBudget([{ name: 'f', description: 'Does f.', inputSchema: { type: 'object' } }], 10)
 * b.tokens   // 18
 * b.warning  // 'the tool listing takes about 18 tokens, over the budget of 10: …'
 */

/** Characters per token assumed by the estimate. */
export const charsPerToken = 4

/** The estimate for a listing, and a warning when it exceeds the budget. */
export interface ListingBudget {
  readonly tools: number
  /** Compact JSON characters of the listing. */
  readonly chars: number
  /** Estimated tokens. */
  readonly tokens: number
  /** The budget the estimate was compared with, if any. */
  readonly budget: number | undefined
  /** Present when the listing exceeds the budget. */
  readonly warning?: string
  /** The tools that take the most, largest first (at most five). */
  readonly largest: ReadonlyArray<{ readonly name: string; readonly tokens: number }>
}

/** Estimated tokens of a JSON value written compactly. */
export const estimateTokens = (value: unknown): number => Math.ceil(JSON.stringify(value).length / charsPerToken)

/** The estimate for a list of tools (as `tools/list` shows them), against an optional budget. */
export const listingBudget = (tools: ReadonlyArray<{ readonly name: string }>, budget?: number): ListingBudget => {
  const sizes = tools.map((t) => ({ name: t.name, chars: JSON.stringify(t).length }))
  // the listing is the tools array: commas and brackets between the tools count too
  const chars = sizes.reduce((n, s) => n + s.chars, 0) + Math.max(0, sizes.length - 1) + 2
  const tokens = Math.ceil(chars / charsPerToken)
  const largest = [...sizes]
    .sort((a, b) => b.chars - a.chars || (a.name < b.name ? -1 : 1))
    .slice(0, 5)
    .map((s) => ({ name: s.name, tokens: Math.ceil(s.chars / charsPerToken) }))
  const over = budget !== undefined && tokens > budget
  return {
    tools: tools.length,
    chars,
    tokens,
    budget,
    largest,
    ...(over
      ? {
          warning: `the tool listing takes about ${tokens} tokens, over the budget of ${budget}: serve a curated subset (categories or tags), or shorten descriptions and schemas (largest: ${largest
            .map((l) => `${l.name} ~${l.tokens}`)
            .join(', ')})`,
        }
      : {}),
  }
}
