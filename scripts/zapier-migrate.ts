// `npm run zapier:migrate -- FROM TO [PERCENT]`: moves a share of the Zapier app's users between two
// versions of one major (zapier-app/packaging/migration.ts), with the Zapier CLI in the built app
// (dist/zapier, where its link to the registered app is). The manual workflow
// .github/workflows/zapier-migrate.yml runs it; never the release.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { planMigration } from '../zapier-app/packaging/migration.ts';
import { stageDir } from '../zapier-app/packaging/paths.ts';
import { readLink } from '../zapier-app/packaging/user-files.ts';

const [from = '', to = '', percent] = process.argv.slice(2);
const plan = planMigration(from, to, percent);
if ('problem' in plan) {
  console.error(`zapier:migrate: ${plan.problem}`);
  console.error('Usage: npm run zapier:migrate -- FROM TO [PERCENT]   e.g. 1.4.0 1.5.0 10');
  process.exit(2);
}
// Which Zapier app to migrate is the link `register` made, copied into dist/zapier by the build.
if (!existsSync(`${stageDir}package.json`) || !readLink(`${stageDir}.zapierapprc`)) {
  console.error(
    'zapier:migrate: dist/zapier names no registered Zapier app: commit zapier-app/.zapierapprc (made by `npm run zapier -- register`), then `npm run build`.',
  );
  process.exit(2);
}
if (plan.note) console.error(plan.note);
const result = spawnSync('zapier-platform', plan.args, { cwd: stageDir, stdio: 'inherit' });
if (result.error) {
  console.error(`zapier:migrate: could not run zapier-platform: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
