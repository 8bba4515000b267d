/**
 * The one comment the sync keeps on a pull request, through GitHub's REST API: found again by
 * its hidden marker (listing every page of the pull request's comments), updated in place on
 * each push, created only when there is none. The token goes to GitHub's API base only
 * (GITHUB_API_URL, which a GitHub Enterprise runner sets to its own), and redirects are not
 * followed, so it never reaches another host.
 */

export interface CommentTarget {
  /** GITHUB_API_URL: https://api.github.com, or an Enterprise server's. */
  readonly apiUrl: string;
  /** `owner/name`. */
  readonly repository: string;
  readonly pullRequest: number;
  readonly token: string;
}

interface IssueComment {
  readonly id: number;
  readonly body?: string | null;
}

const PER_PAGE = 100;

async function github(target: CommentTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  const url = new URL(`${target.apiUrl.replace(/\/+$/, '')}${path}`);
  const response = await fetch(url, {
    method,
    redirect: 'error',
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${target.token}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'pagerly-directory-sync-action',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) {
    const text = (await response.text()).slice(0, 300);
    const hint =
      response.status === 403 || response.status === 404
        ? ' Give the job `permissions: pull-requests: write` (a run from a fork gets a read-only token, and no comment).'
        : '';
    throw new Error(`GitHub answered ${response.status} to ${method} ${url.pathname}: ${text}.${hint}`);
  }
  return response.status === 204 ? undefined : response.json();
}

/** Creates the comment, or updates the one that carries `marker`; says which. */
export async function upsertComment(target: CommentTarget, marker: string, body: string): Promise<{ action: 'created' | 'updated'; id: number }> {
  const base = `/repos/${target.repository}/issues/${target.pullRequest}/comments`;
  for (let page = 1; ; page += 1) {
    const comments = (await github(target, 'GET', `${base}?per_page=${PER_PAGE}&page=${page}`)) as IssueComment[];
    if (!Array.isArray(comments)) throw new Error(`GitHub's list of comments on ${base} was not a list`);
    const ours = comments.find((comment) => typeof comment.body === 'string' && comment.body.includes(marker));
    if (ours) {
      await github(target, 'PATCH', `/repos/${target.repository}/issues/comments/${ours.id}`, { body });
      return { action: 'updated', id: ours.id };
    }
    if (comments.length < PER_PAGE) break;
  }
  const created = (await github(target, 'POST', base, { body })) as IssueComment;
  return { action: 'created', id: created.id };
}
