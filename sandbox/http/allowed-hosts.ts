import { isIP } from 'node:net';
import { canonicalIPv6, isLoopbackName } from '../../shared/http/loopback.ts';

/**
 * The hosts the sandbox answers besides its own names: exact names or addresses, or
 * `.example.com` for that name and every name under it (Vite's `server.allowedHosts`,
 * webpack-dev-server's `allowedHosts`); `true` answers any Host, which lets any web page the
 * developer opens use the sandbox through DNS rebinding.
 */
export type AllowedHosts = readonly string[] | true;

/** What the Host rule reads of a request: its Host header and where its connection arrived. */
export interface Arrival {
  readonly host: string | undefined;
  /** The address and port the connection was accepted on (the socket's local end). */
  readonly localAddress: string | undefined;
  readonly localPort: number | undefined;
}

/** The flag and option that name more hosts, as a refusal tells them. */
export const ALLOWED_HOSTS_FLAG = '--allowed-hosts';

const MAX_NAME_SHOWN = 255;

/**
 * A Host header as `uri-host [":" port]` (RFC 9110, 7.2): its name in lower case (an IPv6
 * address in brackets and written canonically) and its port (80 when it names none), or
 * undefined when it is not that. Like Vite and webpack-dev-server, an IPv6 address counts
 * only in brackets, and `127.1` is a name, not an address.
 */
export function parseHost(host: string): { name: string; port: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(\d{0,5}))?$/i.exec(host.trim());
  if (!match) return undefined;
  const port = match[2] ? Number(match[2]) : 80;
  if (port > 65_535) return undefined;
  const raw = match[1]!.toLowerCase();
  if (!raw.startsWith('[')) return { name: raw, port };
  if (isIP(raw.slice(1, -1)) !== 6) return undefined;
  return { name: new URL(`http://${raw}`).hostname, port };
}

/**
 * The `allowedHosts` option, checked: each entry a name or address without a port, or
 * `.example.com`; names in lower case, IPv6 addresses in brackets. Throws naming what is wrong.
 */
export function allowedHostList(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    const text = entry.trim().toLowerCase();
    if (text === '' || text === '.') throw new TypeError('allowedHosts: an entry is empty; give a host name such as host.docker.internal');
    if (text.startsWith('*')) throw new TypeError(`allowedHosts: "${entry}": write ".${text.replace(/^\*\.?/, '')}" for a name and every name under it`);
    const ipv6 = canonicalIPv6(text);
    if (ipv6) return `[${ipv6}]`;
    const parsed = parseHost(text.startsWith('.') ? text.slice(1) : text);
    if (!parsed) throw new TypeError(`allowedHosts: "${entry}" is not a host name or address`);
    if (/:\d*$/.test(text) && !text.endsWith(']')) {
      throw new TypeError(`allowedHosts: "${entry}": name the host without a port (${parsed.name}); an allowed host is answered on any port`);
    }
    return text.startsWith('.') ? `.${parsed.name}` : parsed.name;
  });
}

const isAllowedName = (name: string, allowed: readonly string[]) =>
  allowed.some((entry) => entry === name || (entry.startsWith('.') && (name === entry.slice(1) || name.endsWith(entry))));

/**
 * Why a request's Host does not name this sandbox, or undefined when it does. A Host names it
 * when it is a loopback name with the port the request reached (`localhost:4010`,
 * `127.0.0.1:4010`, `[::1]:4010`, `app.localhost:4010`), the address the request reached
 * with that port (an address cannot be rebound), or a name in `allowed`, on any port. A page
 * whose own domain was pointed at this machine (DNS rebinding) sends its domain: refused, on
 * every route. A request without Host is refused too (webpack-dev-server and the MCP SDK do
 * so; Vite lets it through, as no browser omits it).
 */
export function hostRefusal({ host, localAddress, localPort }: Arrival, allowed: AllowedHosts): string | undefined {
  if (allowed === true) return undefined;
  const port = localPort ?? 80;
  const own = `localhost:${port}, 127.0.0.1:${port} or [::1]:${port}`;
  if (host === undefined || host.trim() === '') {
    return `The request has no Host header: send the one that names the sandbox (${own})`;
  }
  const parsed = parseHost(host);
  if (!parsed) return `The Host header ${JSON.stringify(host.slice(0, MAX_NAME_SHOWN))} is not a host name and port: send one that names the sandbox (${own})`;
  const { name } = parsed;
  const ownName = isLoopbackName(name) || (localAddress !== undefined && sameAddress(name, localAddress));
  if (ownName && (localPort === undefined || parsed.port === localPort)) return undefined;
  if (isAllowedName(name, allowed)) return undefined;
  const shown = JSON.stringify(host.slice(0, MAX_NAME_SHOWN));
  const why = isLoopbackName(name) ? `names port ${parsed.port}, not this sandbox's` : 'is not a name of this sandbox';
  return (
    `The Host ${shown} ${why}: the sandbox answers ${own}, so that a web page whose own domain is pointed at this machine (DNS rebinding) cannot use it. ` +
    `If you reach it by this name on purpose (from a container, through a proxy or a tunnel), allow the name: ${ALLOWED_HOSTS_FLAG} ${name} ` +
    `(createSandbox: allowedHosts: ['${name}'])`
  );
}

/** The Host's address and the socket's are one address (a socket writes IPv4 also as `::ffff:1.2.3.4`). */
function sameAddress(name: string, localAddress: string): boolean {
  const bare = (address: string) =>
    address
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1')
      .toLowerCase();
  const local = bare(localAddress);
  const given = bare(name);
  if (given === local) return true;
  const canonical = canonicalIPv6(given);
  return canonical !== undefined && canonical === canonicalIPv6(local);
}
