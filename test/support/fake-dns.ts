import dns from 'node:dns';

/**
 * Makes the resolver answer `code` (ENOTFOUND: no such name; EAI_AGAIN: no answer for now) for
 * one host name, so DNS failures are tested without a query leaving the machine. Node's
 * sockets look names up through `dns.lookup` at connect time; every other name is untouched.
 * With `times`, only the first `times` lookups fail; later ones answer 127.0.0.1 (loopback only).
 * Returns the function that restores the real lookup.
 */
export function failLookup(hostname: string, code: 'ENOTFOUND' | 'EAI_AGAIN', { times = Infinity } = {}): () => void {
  const original = dns.lookup;
  let failures = 0;
  const patched = function (this: unknown, host: string, ...rest: unknown[]) {
    const callback = rest[rest.length - 1] as (error: NodeJS.ErrnoException | null, address?: unknown, family?: number) => void;
    if (host !== hostname) return (original as (...args: unknown[]) => unknown).apply(this, [host, ...rest]);
    if (failures++ < times) {
      const error: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code, syscall: 'getaddrinfo', hostname: host });
      process.nextTick(() => callback(error));
    } else {
      const all = typeof rest[0] === 'object' && (rest[0] as { all?: boolean } | null)?.all === true;
      process.nextTick(() => (all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)));
    }
    return undefined;
  };
  dns.lookup = patched as typeof dns.lookup;
  return () => {
    dns.lookup = original;
  };
}
