import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Server } from 'node:http';

/**
 * Which process sent a request, read from the kernel rather than from anything the sender says:
 * the client's end of the loopback connection is a line of /proc/net/tcp (its local port is the
 * port the server sees as remote) with a socket inode, and the process that owns the socket has
 * a file descriptor `socket:[inode]` under /proc/<pid>/fd. Linux only (proc(5)); the connection
 * is open while its request is being handled, so the lookup runs then.
 */
export function socketInode(clientPort: number, serverPort: number, table = readProcNetTcp()): string | undefined {
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const [local, remote, inode] = [fields[1], fields[2], fields[9]];
    if (!local || !remote || !inode) continue;
    if (portOf(local) === clientPort && portOf(remote) === serverPort && inode !== '0') return inode;
  }
  return undefined;
}

const portOf = (address: string) => Number.parseInt(address.split(':').at(-1) ?? '', 16);

function readProcNetTcp(): string {
  return ['/proc/net/tcp', '/proc/net/tcp6'].map((file) => readFileSync(file, 'utf8')).join('\n');
}

/** Which of the candidate processes holds the socket, or undefined. */
export function ownerOf(inode: string, pids: readonly number[]): number | undefined {
  const target = `socket:[${inode}]`;
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return pid;
      } catch {
        // The descriptor closed while being read.
      }
    }
  }
  return undefined;
}

export interface SeenRequest {
  method: string;
  path: string;
  /** The process that owned the client's end of the connection, among the candidates; undefined: none of them. */
  pid: number | undefined;
}

/**
 * Records every request a server receives with the process it came from, among `candidates()`
 * (the pids of the processes under test). It listens ahead of the server's own handler: once
 * that handler answers, a client may read the answer, close its socket and exit before a lookup
 * made afterwards finds it; before the answer, the client is still waiting on an open socket.
 */
export function recordSenders(server: Server, candidates: () => readonly number[]): { readonly seen: readonly SeenRequest[] } {
  const seen: SeenRequest[] = [];
  server.prependListener('request', (request) => {
    const client = request.socket.remotePort;
    const port = request.socket.localPort;
    const inode = client && port ? socketInode(client, port) : undefined;
    seen.push({ method: request.method ?? '', path: (request.url ?? '').split('?')[0]!, pid: inode ? ownerOf(inode, candidates()) : undefined });
  });
  return { seen };
}
