// Entry of `npm run make:deploy`; everything else is in main.ts (which the tests run in-process).
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
