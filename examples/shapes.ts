/**
 * A trip planner written with raw shapes of Standard Schemas in every slot, as users of the
 * official SDK write their schemas (`{ city: z.string() }`), libraries mixed: a tool's input
 * and output, a prompt's arguments, and the form `book_trip` asks the user to fill
 * (`ctx.elicit`). Each property is validated by its own library; the listed JSON Schema,
 * the prompt's arguments and the form sent are written from each property's JSON Schema.
 * Elicitation needs a channel to the client, so this example serves stdio.
 *
 *   node dist/examples/shapes.js
 *
 * See docs/schemas.md.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { z } from 'zod'
import { emcp, mcpServer, prompt, prompts } from 'emcp'
import { serveStdio } from 'emcp/stdio'
import { runMain } from './main.js'

/** A trip's pace: arktype writes it as an anyOf of constants, sent to clients as an enum. */
const pace = type("'slow' | 'fast'").describe('How busy the days are')

/** `book_trip`'s arguments and result: raw shapes, as the SDK's `registerTool` takes them. */
export const BookInput = { city: z.string().min(2).describe('Where to'), nights: z.number().int().min(1).max(30).default(3) }
export const BookOutput = { booked: z.boolean(), summary: z.string() }

/** The form `book_trip` asks for: who travels, and how. */
export const TravellerForm = {
  name: z.string().min(2, 'a name has at least two letters').describe('Your name'),
  pace,
  room: toStandardJsonSchema(v.optional(v.picklist(['single', 'double']))),
}

export const bookTrip = emcp({ name: 'book_trip', description: 'Book a trip, asking the traveller for their details.', input: BookInput, output: BookOutput })

/** A prompt whose arguments are a raw shape, as the SDK's `registerPrompt` takes its `argsSchema`. */
export const plan = prompt({
  name: 'plan_trip',
  description: 'Ask the model to plan a trip.',
  arguments: { city: z.string().min(2).describe('Where to'), days: z.string().regex(/^\d+$/, 'days must be digits').transform(Number).optional(), pace },
  get: ({ city, days, pace: p }) => `Plan ${days ?? 'a few'} ${p} days in ${city}.`, // days: number | undefined
})

export const shapes = mcpServer([bookTrip], { name: 'trips', version: '1.0.0' }, { features: [prompts([plan])] }).implement({
  book_trip: async ({ city, nights }, ctx) => {
    const answer = await ctx.elicit({ message: `Who travels to ${city}?`, requestedSchema: TravellerForm })
    if (answer.action !== 'accept') return { booked: false, summary: `not booked (${answer.action})` }
    // typed property by property: room is 'single' | 'double' | undefined
    const { name, pace: p, room } = answer.content
    return { booked: true, summary: `${name}: ${nights} ${p} nights in ${city}${room === undefined ? '' : `, ${room} room`}` }
  },
})

export default shapes

const usage = `A trip planner with raw shapes in every slot (book_trip, plan_trip).

  node dist/examples/shapes.js       over stdio`

runMain(import.meta.url, { usage, options: {} }, async () => {
  await serveStdio(shapes)
})
