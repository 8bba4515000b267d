// Entry of `npm run make:deploy`; the deploy is make-app/deploy/main.ts (which the tests run in-process).
// It is given api:check's comparison of the Make surface with the released reports: a script may
// use the API check, the Make app may not (test/layering.test.ts).
import { main } from '../make-app/deploy/main.ts';
import { differencesSinceRelease } from './api/check.ts';

process.exitCode = await main(
  process.argv.slice(2),
  process.env,
  {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  },
  () => differencesSinceRelease(['make']),
);
