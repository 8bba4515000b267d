import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A throwaway HTTP server on 127.0.0.1 for transport tests that need real sockets. */
export async function loopbackServer(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: bind, note the port, close. */
export async function closedPort(): Promise<string> {
  const { url, close } = await loopbackServer(() => undefined);
  await close();
  return url;
}
