import type { FastifyRequest } from 'fastify';

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * A Host header that names this machine: a loopback address or `localhost`. A name that only
 * resolves to 127.0.0.1 (DNS rebinding: a web page's own domain pointed at the sandbox) is
 * refused, so a page elsewhere cannot read the console or move the clock through the browser.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '')).toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || isLoopbackAddress(name);
}

/**
 * Why this request may not reach the console or the keyless controls, or undefined when it may.
 * `allowRemote` lifts the loopback rule; a change sent by a page of another origin is refused
 * always (cross-site request forgery: the controls take no key to prove who asks).
 */
export function refusal(request: FastifyRequest, allowRemote: boolean): string | undefined {
  const { host, origin } = request.headers;
  if (!allowRemote && !(isLoopbackAddress(request.socket.remoteAddress) && isLoopbackHost(host))) {
    return 'The sandbox console and its /_sandbox controls answer only on loopback (127.0.0.1, ::1 or localhost as the host); start the sandbox with --public-console to open them to other hosts';
  }
  const changes = request.method !== 'GET' && request.method !== 'HEAD';
  if (
    changes &&
    (request.headers['sec-fetch-site'] === 'cross-site' || (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`))
  ) {
    return 'The sandbox controls take changes only from the console itself or from a program (no cross-site requests)';
  }
  return undefined;
}
