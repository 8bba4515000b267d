// `npm run zapier -- <args>`: the Zapier CLI in the built app (dist/zapier), where it must run.
// Before `npm run build` there is nothing to run it in: say so in one line instead of a
// shell's "cd: no such file or directory".
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stageDir } from '../zapier-app/packaging/paths.ts';
import { linkUserEnv, saveAppLink } from '../zapier-app/packaging/user-files.ts';

if (!existsSync(`${stageDir}package.json`)) {
  console.error(
    `The Zapier app is not built yet: run \`npm run build\` first (it writes dist/zapier), then \`npm run zapier -- ${process.argv.slice(2).join(' ')}\` again.`,
  );
  process.exit(2);
}
// zapier-app/.env written after the build (as docs/zapier.md orders it) is read all the same.
linkUserEnv();
const result = spawnSync('zapier-platform', process.argv.slice(2), { cwd: stageDir, stdio: 'inherit' });
if (result.error) {
  console.error(`Could not run zapier-platform: ${result.error.message}. Run \`npm install\` in the repository first.`);
  process.exit(1);
}
// After `register` or `link`, the link goes where it is committed, not only into dist/.
const saved = saveAppLink();
if (saved) console.error(`pagerly: ${saved}`);
process.exit(result.status ?? 1);
