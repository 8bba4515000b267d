// Part of `npm run action:local`: the directory sync action under @github/local-action, against
// the sandbox and a loopback stand-in of GitHub's REST API (github-api-stand-in.ts). A
// pull_request run must plan (summary and one comment, directory untouched); a second run must
// update that comment, not add one; a push to the default branch must apply; a hostile name
// must stay inert in summary and comment; neither key nor token may show in the log.
// One line per case with its time; exit 1 on any failure.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDirectoryAction } from '../../github-action/directory/build.ts';
import { createSandbox, demoKeys } from '../../sandbox/index.ts';
import { startGitHubStandIn } from './github-api-stand-in.ts';
import { printedForms } from './support.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entrypoint = fileURLToPath(new URL('../../github-action/directory/run.ts', import.meta.url));
const localAction = join(root, 'node_modules/.bin/local-action');

const REPOSITORY = 'acme/on-call';
const PULL_REQUEST = 7;
const TOKEN = 'ghs_standInToken0123456789abcdef';
const HOSTILE = '<img src=x onerror=alert(1)> @octocat a|b\nsecond line';

const temp = mkdtempSync(join(tmpdir(), 'pagerly-local-directory-'));
const sandbox = await createSandbox();
const github = await startGitHubStandIn({ token: TOKEN, repository: REPOSITORY, pullRequest: PULL_REQUEST, seedComments: 120 });
const failures: string[] = [];

const people = join(temp, 'people.csv');
writeFileSync(
  people,
  [
    'email,name,phone',
    'new.hire@acme.example,New Hire,+14155550199',
    'katherine@acme.example,Katherine Johnson,+14155550177',
    `hostile@acme.example,"${HOSTILE}",`,
    'grace@acme.example,Grace Hopper,+14155550101',
    '',
  ].join('\r\n'),
);

async function localRun(name: string, env: Record<string, string>): Promise<{ log: string; summary: string; ms: number }> {
  const envFile = join(temp, `${name}.env`);
  const summary = join(temp, `${name}.summary.md`);
  writeFileSync(summary, '');
  const all = { ...env, GITHUB_STEP_SUMMARY: summary, GITHUB_API_URL: github.url, GITHUB_REPOSITORY: REPOSITORY };
  writeFileSync(
    envFile,
    `${Object.entries(all)
      .map(([k, v]) => `${k}='${v}'`)
      .join('\n')}\n`,
    { mode: 0o600 },
  );
  const started = performance.now();
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
    execFile(localAction, ['run', action, entrypoint, envFile], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (_error, stdout, stderr) =>
      resolve({ stdout, stderr }),
    ),
  );
  return { log: stdout + stderr, summary: readFileSync(summary, 'utf8'), ms: performance.now() - started };
}

function event(name: string, value: unknown): string {
  const path = join(temp, `${name}.json`);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

function check(name: string, ms: number, problems: string[]): void {
  if (problems.length) failures.push(`${name}: ${problems.join('; ')}`);
  console.log(`  ${problems.length ? '✘' : '✔'} ${name.padEnd(58)} ${Math.round(ms)} ms${problems.length ? `\n      ${problems.join('\n      ')}` : ''}`);
}

const key = demoKeys.acmeAdmin;
/** The runner consumes `::add-mask::` lines and never shows them: everything else counts. */
const leaks = (output: string) => {
  const text = output
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  return [
    ...printedForms(key)
      .filter((form) => text.includes(form))
      .map((form) => `the key as ${JSON.stringify(form)}`),
    ...(text.includes(TOKEN) ? ['the GitHub token'] : []),
  ];
};

/** What GitHub would render live from a hostile name: a tag, a mention, a split cell or row. */
function live(markdown: string): string[] {
  const problems: string[] = [];
  if (/<img/i.test(markdown)) problems.push('a raw <img> tag');
  if (/(^|[^\w`])@octocat/.test(markdown)) problems.push('a live @octocat mention');
  const row = markdown.split('\n').find((line) => line.includes('hostile@'));
  if (!row) problems.push('no row for the hostile name');
  else if (row.split('|').length - 1 !== 4) problems.push(`the hostile row has ${row.split('|').length - 1} pipes, not 4: ${row}`);
  if (markdown.split('\n').some((line) => line.startsWith('second line'))) problems.push('the newline started a line');
  if (!markdown.includes('a&#124;b')) problems.push('`a|b` is not shown as typed');
  return problems;
}

const inputs = { 'INPUT_API-KEY': key, INPUT_FILE: people, 'INPUT_GITHUB-TOKEN': TOKEN, 'INPUT_BASE-URL': '' };
const ours = () => github.comments.filter((comment) => comment.body.includes('pagerly-directory-sync'));
const personOf = (email: string) => [...sandbox.world.people.values()].find((person) => person.orgId === 'org_acme' && person.email === email);
const phoneOf = (email: string) => personOf(email)?.phone;

let action = '';
try {
  action = (await buildDirectoryAction(join(temp, 'action'))).folder;
  const url = await sandbox.listen();
  inputs['INPUT_BASE-URL'] = url;
  console.log('Directory sync action under @github/local-action, against the sandbox and a GitHub stand-in');
  const prEvent = event('pull_request', { pull_request: { number: PULL_REQUEST }, repository: { default_branch: 'main' } });
  const pr = { ...inputs, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: prEvent, GITHUB_REF: `refs/pull/${PULL_REQUEST}/merge` };

  const planned = await localRun('plan', pr);
  check('pull request: the summary holds the plan, one comment', planned.ms, [
    ...(/2 to create, 1 to update/.test(planned.summary) ? [] : [`no plan in the summary:\n${planned.summary}\nlog:\n${planned.log}`]),
    ...(planned.summary.includes('phone: +14155550103 → +14155550177') ? [] : ["the summary lacks Katherine's phone change"]),
    ...(ours().length === 1 ? [] : [`${ours().length} plan comments, not 1`]),
    ...(ours()[0]?.body === planned.summary ? [] : ['the comment is not the summary']),
    ...(phoneOf('katherine@acme.example') === '+14155550103' && !personOf('new.hire@acme.example') ? [] : ['the plan changed the directory']),
    ...(/::set-output name=changed::true/.test(planned.log) ? [] : ['no changed=true output']),
    ...leaks(planned.log),
  ]);
  check('a hostile name stays inert in summary and comment', 0, [...live(planned.summary), ...live(ours()[0]?.body ?? '')]);

  const again = await localRun('plan-again', pr);
  const firstId = ours()[0]?.id;
  check('a second push updates the comment, never adds one', again.ms, [
    ...(ours().length === 1 && ours()[0]?.id === firstId ? [] : [`${ours().length} plan comments after the second run`]),
    ...(github.requests.filter((r) => r.method === 'PATCH').length === 1 ? [] : ['no PATCH of the comment']),
    ...(github.requests.filter((r) => r.method === 'POST').length === 1 ? [] : ['a second POST']),
    ...(github.requests.every((r) => r.authorization === `Bearer ${TOKEN}`) ? [] : ['a request to GitHub without the token']),
    ...leaks(again.log),
  ]);

  const requestsBefore = github.requests.length;
  const pushEvent = event('push', { repository: { default_branch: 'main' } });
  const applied = await localRun('apply', { ...inputs, GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: pushEvent, GITHUB_REF: 'refs/heads/main' });
  check('push to the default branch applies', applied.ms, [
    ...(phoneOf('katherine@acme.example') === '+14155550177' ? [] : ["Katherine's phone was not changed"]),
    ...(personOf('new.hire@acme.example')?.name === 'New Hire' ? [] : ['New Hire was not created']),
    ...(/2 created, 1 updated/.test(applied.summary) ? [] : [`the summary does not say what was applied:\n${applied.summary}\nlog:\n${applied.log}`]),
    ...(github.requests.length === requestsBefore ? [] : ['the apply called GitHub']),
    ...(applied.log.includes('::error::') ? ['the step failed'] : []),
    ...live(applied.summary),
    ...leaks(applied.log + applied.summary),
  ]);
} catch (error) {
  failures.push(String(error));
  console.log(`  ✘ ${String(error)}`);
} finally {
  await sandbox.close();
  await github.close();
  rmSync(temp, { recursive: true, force: true });
}
console.log(failures.length ? `${failures.length} case(s) failed` : 'All cases passed');
process.exitCode = failures.length ? 1 : 0;
