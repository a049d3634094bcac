/**
 * The on-CPU time of a process's threads, from Linux's /proc/<pid>/task/<tid>/schedstat
 * (nanoseconds, the first field): what the benches that weigh a server's own CPU read
 * (runtime.mjs, stdio-cpu.mjs, http-cpu.mjs).
 *
 *   import { onCpu } from './on-cpu.mjs'
 *   onCpu(process.pid) // { main: 81234567, all: 90123456 }
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'

/** True where threads report their on-CPU time in nanoseconds (Linux schedstat). */
export const hasSchedstat = existsSync(`/proc/self/task/${process.pid}/schedstat`)

/** On-CPU nanoseconds of the main thread and of all threads of process `pid` (a thread that ends meanwhile is left out). */
export const onCpu = (pid) => {
  let main = 0
  let all = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
      all += ns
      if (tid === String(pid)) main = ns
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return { main, all }
}
