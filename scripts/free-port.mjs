// A free TCP port on 127.0.0.1, for the scripts that start a server of their own (the
// conformance runs, the benchmarks): the kernel picks it, the probe closes before it is used.
import { createServer } from 'node:net'

/** Resolves to a port nothing listens on at the moment of asking. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
