/**
 * The playground in a real browser (headless Chromium) for a tool written with zod: the form
 * is built from the JSON Schema zod wrote (required marks, an enum as a select, a default
 * filled in, zod's descriptions), checked before sending by that schema, and the call is
 * validated by zod on the server (a refinement the JSON Schema cannot say is answered with
 * zod's message); an elicitation whose form is a zod schema is shown and answered too.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { emcp, mcpServer } from 'emcp'
import { callWith, elicitationOf, servedPlayground, skipBrowser } from './browser.js'

const order = emcp({
  name: 'order',
  description: 'Orders an item (zod).',
  input: z.object({
    item: z.string().min(2).refine((s) => s !== 'nothing', 'nothing is not an item').describe('What to order'),
    qty: z.number().int().positive(),
    size: z.enum(['s', 'm', 'l']).default('m'),
    gift: z.boolean().optional(),
  }),
})
const profile = emcp({ name: 'profile', description: 'Asks for a profile (zod form).', input: z.object({}) })

const server = mcpServer([order, profile], { name: 'playground-zod', version: '1.0.0' }).implement({
  order: (args) => JSON.stringify(args),
  profile: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Your nickname?', requestedSchema: z.object({ nick: z.string().min(2) }) })
    return answer.action === 'accept' ? `Hi, ${answer.content.nick}!` : answer.action
  },
})

describe.skipIf(skipBrowser)('the playground in Chromium, zod tools', () => {
  const served = servedPlayground(server)

  it("builds the form from zod's JSON Schema, checks it before sending, and shows zod's refusal from the server", async () => {
    const page = await served.open()
    await callWith(page, 'order')
    const form = page.locator('form[data-tool="order"]')
    expect(await form.locator('.required').count()).toBe(2) // item, qty
    expect(await form.textContent()).toContain('What to order')
    expect(await page.locator('select[name="size"] option:checked').textContent()).toBe('"m"')
    await page.fill('input[name="item"]', 'book')
    await page.fill('input[name="qty"]', '1.5')
    await page.click('[data-testid="call"]')
    await page.locator('[data-problem="qty"]:has-text("whole number")').waitFor()
    await page.fill('input[name="qty"]', '2')
    await page.click('[data-testid="call"]')
    const text = page.locator('[data-testid="result"] pre.text')
    await expect.poll(() => text.textContent()).toBe('{"item":"book","qty":2,"size":"m"}')
    // what only zod knows (a refinement) is refused by the server with zod's message
    await page.fill('input[name="item"]', 'nothing')
    await page.click('[data-testid="call"]')
    await expect.poll(() => text.textContent()).toBe('Invalid arguments for tool order: /item: nothing is not an item')
    await page.close()
  })

  it('answers an elicitation whose form is a zod schema', async () => {
    const page = await served.open()
    const form = await elicitationOf(page, 'profile')
    expect(await form.locator('.message').textContent()).toBe('Your nickname?')
    await form.locator('input[name="nick"]').fill('Al')
    await form.locator('button[data-action="accept"]').click()
    await expect.poll(() => page.locator('[data-testid="result"] pre.text').textContent()).toBe('Hi, Al!')
    await page.close()
  })
})
