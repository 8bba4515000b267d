import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in of the part of GitHub's REST API the directory action uses: list a pull
 * request's comments (paginated, `per_page` at most 100), create one, update one. It records
 * every request with its Authorization header, so a test sees where the token went, and
 * refuses a wrong token with 401 as GitHub does.
 */
export interface StoredComment {
  id: number;
  body: string;
}

export interface GitHubStandIn {
  readonly url: string;
  readonly comments: StoredComment[];
  readonly requests: { method: string; path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

const body = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
  });

export async function startGitHubStandIn(options: { token: string; repository: string; pullRequest: number; seedComments?: number }): Promise<GitHubStandIn> {
  const comments: StoredComment[] = [];
  let nextId = 1000;
  for (let i = 0; i < (options.seedComments ?? 0); i += 1) comments.push({ id: nextId++, body: `Looks good to me (${i})` });
  const requests: GitHubStandIn['requests'] = [];
  const listPath = `/repos/${options.repository}/issues/${options.pullRequest}/comments`;
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push({ method: request.method ?? '', path: url.pathname + url.search, authorization: request.headers.authorization });
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.headers.authorization !== `Bearer ${options.token}`) return send(401, { message: 'Bad credentials' });
    if (request.method === 'GET' && url.pathname === listPath) {
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100);
      const page = Number(url.searchParams.get('page') ?? 1);
      return send(200, comments.slice((page - 1) * perPage, page * perPage));
    }
    if (request.method === 'POST' && url.pathname === listPath) {
      const comment = { id: nextId++, body: String((JSON.parse(await body(request)) as { body: unknown }).body) };
      comments.push(comment);
      return send(201, comment);
    }
    const edit = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (request.method === 'PATCH' && edit) {
      const comment = comments.find((c) => c.id === Number(edit[1]));
      if (!comment) return send(404, { message: 'Not Found' });
      comment.body = String((JSON.parse(await body(request)) as { body: unknown }).body);
      return send(200, comment);
    }
    return send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    comments,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
