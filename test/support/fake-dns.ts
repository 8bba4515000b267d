import dns from 'node:dns';

/**
 * Makes the resolver answer `code` (ENOTFOUND: no such name; EAI_AGAIN: no answer for now) for
 * one host name, so DNS failures are tested without a query leaving the machine. Node's
 * sockets look names up through `dns.lookup` at connect time; every other name is untouched.
 * Returns the function that restores the real lookup.
 */
export function failLookup(hostname: string, code: 'ENOTFOUND' | 'EAI_AGAIN'): () => void {
  const original = dns.lookup;
  const patched = function (this: unknown, host: string, ...rest: unknown[]) {
    const callback = rest[rest.length - 1] as (error: NodeJS.ErrnoException) => void;
    if (host !== hostname) return (original as (...args: unknown[]) => unknown).apply(this, [host, ...rest]);
    const error: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code, syscall: 'getaddrinfo', hostname: host });
    process.nextTick(() => callback(error));
    return undefined;
  };
  dns.lookup = patched as typeof dns.lookup;
  return () => {
    dns.lookup = original;
  };
}
