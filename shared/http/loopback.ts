import { isIP } from 'node:net';

// What only this machine can reach, as an address or a name: the sandbox's Host rule and its
// console's caller check, and the MCP command's warning when it listens beyond this machine.

/**
 * An IPv6 address written one way, as the URL parser writes it (`0:0::1` is `::1`), or undefined
 * when it is none; one with a zone (`fe80::1%eth0`, which a socket may name) has no such form.
 */
export function canonicalIPv6(address: string): string | undefined {
  if (isIP(address) !== 6 || address.includes('%')) return undefined;
  return new URL(`http://[${address}]`).hostname.slice(1, -1);
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (isIP(bare) === 4) return bare.startsWith('127.');
  const canonical = canonicalIPv6(bare);
  return canonical === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(canonical ?? '');
}

/** A name only this machine answers to: `localhost`, a name under `.localhost` (RFC 6761), or a loopback address. */
export function isLoopbackName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'localhost' || lower.endsWith('.localhost') || isLoopbackAddress(lower);
}
