import os from 'node:os';

/** What the figures were measured on: without it, numbers from two machines get compared as if alike. */
export interface MachineFacts {
  node: string;
  v8: string;
  platform: string;
  cpus: number;
  /** What Node may actually use (cgroup/affinity limits), which can be fewer than the CPUs listed. */
  availableParallelism: number;
  cpuModel: string;
  memoryGiB: number;
  /** Another busy process on the machine skews everything; a high load average says so. */
  loadAverage1m: number;
}

export function machineFacts(): MachineFacts {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${process.platform} ${os.release()} ${process.arch}`,
    cpus: cpus.length,
    availableParallelism: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadAverage1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
}
