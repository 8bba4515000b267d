import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createPagerlyMcpServer, type PagerlyMcpOptions } from '../../mcp-server/server.ts';

/**
 * The server and the SDK's client in this process, linked by the SDK's in-memory transport, so
 * every call goes as JSON-RPC through both; `stops` gets what closes them, for the test's
 * `afterEach`. `client`: a name, or a client of the test's own (capabilities, handlers).
 */
export async function inProcess(options: PagerlyMcpOptions, stops: (() => Promise<void>)[], client: Client | string = 'in-process'): Promise<Client> {
  const server = createPagerlyMcpServer(options);
  if (typeof client === 'string') client = new Client({ name: client, version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  stops.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}
