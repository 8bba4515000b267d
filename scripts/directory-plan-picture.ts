// `npm run docs:directory-plan`: docs/directory-plan.png, the directory action's plan comment as
// a reviewer sees it on a pull request. The comment's own Markdown (renderSync, from a plan of
// a small people file with one hostile name) is rendered to HTML by marked, a GFM renderer, with
// CSS close to GitHub's, and screenshot by Debian's chromium through playwright-core.
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';
import { launchChromium } from '../packaging/headless-chromium.ts';
import type { RowResult } from '../shared/directory-sync/apply.ts';
import { renderSync } from '../github-action/directory/markdown.ts';

const out = fileURLToPath(new URL('../docs/directory-plan.png', import.meta.url));

const current = (email: string, name: string, phone: string) => ({ id: `usr_${name}`, email, name, phone, imageurl: null, role: 'user' as const });
const results: RowResult[] = [
  {
    planned: { kind: 'create', row: 2, email: 'new.hire@acme.example', body: { email: 'new.hire@acme.example', name: 'New Hire', phone: '+14155550199' } },
    outcome: 'planned',
  },
  {
    planned: {
      kind: 'update',
      row: 3,
      email: 'katherine@acme.example',
      body: { email: 'katherine@acme.example', name: 'Katherine Johnson', phone: '+14155550177' },
      changes: [{ field: 'phone', from: '+14155550103', to: '+14155550177' }],
      current: current('katherine@acme.example', 'Katherine Johnson', '+14155550103'),
    },
    outcome: 'planned',
  },
  {
    planned: {
      kind: 'create',
      row: 4,
      email: 'mallory@acme.example',
      body: { email: 'mallory@acme.example', name: '<img src=x onerror=alert(1)> @octocat a|b' },
    },
    outcome: 'planned',
  },
  { planned: { kind: 'remove', row: 5, email: 'hedy@acme.example', current: current('hedy@acme.example', 'Hedy Lamarr', '+14155550104') }, outcome: 'planned' },
  { planned: { kind: 'unchanged', row: 6, email: 'grace@acme.example' }, outcome: 'planned' },
];

const markdown = renderSync(results, { file: 'people.csv', mode: 'plan', why: String });
const css = `
  body { margin: 0; padding: 16px; background: #fff; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
  .comment { width: 760px; border: 1px solid #d1d9e0; border-radius: 6px; }
  .head { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; color: #59636e; border-radius: 6px 6px 0 0; }
  .head b { color: #1f2328; }
  .body { padding: 8px 16px 12px; }
  h3 { font-size: 1.25em; margin: 8px 0 12px; }
  code { background: #eff1f3; padding: .2em .4em; border-radius: 6px; font-size: 85%; font-family: ui-monospace, monospace; }
  table { border-collapse: collapse; margin-top: 12px; }
  th, td { border: 1px solid #d1d9e0; padding: 6px 13px; text-align: left; vertical-align: top; }
  tr:nth-child(2n) td { background: #f6f8fa; }
`;
const html = `<!doctype html><meta charset="utf-8"><style>${css}</style>
<div class="comment"><div class="head"><b>github-actions</b> bot commented</div><div class="body">${await marked.parse(markdown, { gfm: true })}</div></div>`;

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 800, height: 400 }, deviceScaleFactor: 1 });
  // Nothing leaves the page: the rendering has no remote resource, and an <img> a name smuggled
  // in would show as a request here.
  await page.route('**/*', (route) => route.abort());
  await page.setContent(html);
  await page.locator('.comment').screenshot({ path: out });
} finally {
  await browser.close();
}
console.log(`Wrote ${out}`);
