/**
 * A real Fastify 5 app whose OpenAPI 3.1 document @fastify/swagger generates from its own
 * routes (no document is written by hand here): path parameters, a query with an array, a
 * header parameter, a JSON body, nested schemas shared by `$ref` (Pet -> Owner -> Address),
 * a recursive one (Category), a 404 answer, tags, and an operation that needs a bearer
 * token. It listens on 127.0.0.1 and serves its document at /openapi.json.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'

/** The app, its base URL, and the calls it received (method, URL, headers). */
export interface PetStore {
  readonly app: FastifyInstance
  readonly baseUrl: string
  readonly seen: Array<{ readonly method: string; readonly url: string; readonly headers: { readonly [k: string]: unknown } }>
}

const address = { $id: 'Address', type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } }, required: ['city'] } as const
const owner = { $id: 'Owner', type: 'object', properties: { name: { type: 'string' }, address: { $ref: 'Address#' } }, required: ['name'] } as const
const pet = {
  $id: 'Pet',
  type: 'object',
  description: 'A pet in the store.',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string' }, owner: { $ref: 'Owner#' } },
  required: ['id', 'name'],
} as const
const newPet = { $id: 'NewPet', type: 'object', properties: { name: { type: 'string', minLength: 1 }, tag: { type: 'string' }, owner: { $ref: 'Owner#' } }, required: ['name'] } as const
const category = { $id: 'Category', type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: 'Category#' } } }, required: ['name'] } as const
const problem = { $id: 'Problem', type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } as const

/** Starts the store on a free port of 127.0.0.1. */
export const petStore = async (): Promise<PetStore> => {
  const app = Fastify({ logger: false })
  const seen: PetStore['seen'] = []
  app.addHook('onRequest', async (req) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers })
  })
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'Pet store', version: '2.1.0' }, components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } } } })
  for (const s of [address, owner, pet, newPet, category, problem]) app.addSchema(s)
  const pets = new Map<number, { id: number; name: string; tag?: string; owner?: unknown }>([
    [1, { id: 1, name: 'Rex', tag: 'dog', owner: { name: 'Ada', address: { city: 'Oslo', zip: '0150' } } }],
    [2, { id: 2, name: 'Tom', tag: 'cat' }],
  ])
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  app.get('/pets/:petId', {
    schema: {
      operationId: 'getPet',
      summary: 'Find a pet by id.',
      tags: ['pets'],
      params: { type: 'object', properties: { petId: { type: 'integer', description: 'The id of the pet.' } }, required: ['petId'] },
      response: { 200: { $ref: 'Pet#' }, 404: { $ref: 'Problem#' } },
    },
    handler: async (req, reply) => {
      const found = pets.get((req.params as { petId: number }).petId)
      return found ?? reply.code(404).send({ message: `no pet ${(req.params as { petId: number }).petId}` })
    },
  })
  app.get('/pets', {
    schema: {
      operationId: 'listPets',
      description: 'Lists pets, optionally by tag.',
      tags: ['pets'],
      querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 100 }, tags: { type: 'array', items: { type: 'string' } } } },
      response: { 200: { type: 'object', properties: { items: { type: 'array', items: { $ref: 'Pet#' } } }, required: ['items'] } },
    },
    handler: async (req) => {
      const { limit, tags } = req.query as { limit?: number; tags?: string[] }
      const items = [...pets.values()].filter((p) => tags === undefined || tags.includes(p.tag ?? ''))
      return { items: items.slice(0, limit ?? 100) }
    },
  })
  app.post('/pets', {
    schema: {
      operationId: 'createPet',
      summary: 'Add a pet.',
      tags: ['pets'],
      headers: { type: 'object', properties: { 'x-request-id': { type: 'string', description: 'Echoed in the log.' } }, required: ['x-request-id'] },
      body: { $ref: 'NewPet#' },
      response: { 201: { $ref: 'Pet#' } },
    },
    handler: async (req, reply) => {
      const id = pets.size + 1
      const created = { id, ...(req.body as { name: string }) }
      pets.set(id, created)
      return reply.code(201).send(created)
    },
  })
  app.delete('/pets/:petId', {
    schema: {
      operationId: 'deletePet',
      tags: ['admin'],
      security: [{ token: [] }],
      params: { type: 'object', properties: { petId: { type: 'integer' } }, required: ['petId'] },
      response: { 204: { type: 'null', description: 'Deleted.' }, 401: { $ref: 'Problem#' } },
    },
    handler: async (req, reply) => {
      if (req.headers.authorization !== 'Bearer s3cret') return reply.code(401).send({ message: 'a valid bearer token is required' })
      pets.delete((req.params as { petId: number }).petId)
      return reply.code(204).send()
    },
  })
  app.get('/categories', {
    schema: { operationId: 'categoryTree', summary: 'The category tree.', tags: ['catalog'], response: { 200: { $ref: 'Category#' } } },
    handler: async () => ({ name: 'all', children: [{ name: 'mammals', children: [{ name: 'dogs', children: [] }] }] }),
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port
  return { app, baseUrl: `http://127.0.0.1:${port}`, seen }
}
