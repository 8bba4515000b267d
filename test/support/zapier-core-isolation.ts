import http from 'node:http';
import https from 'node:https';
import { afterAll, afterEach, beforeAll } from '@jest/globals';

type Patchable = { patchedByZapier?: boolean; zapierLogger?: unknown };

/**
 * For test files that run a Zapier app through zapier-platform-core (appTester). Core's
 * lambda handler patches Node's own `http.request` and `https.request` to log every request,
 * once per process (it marks the module `patchedByZapier` and never undoes it), and wraps
 * `global.fetch` again on every call. Node's built-in modules are shared by every test file of
 * a jest worker, so the patch outlives the file and breaks nock replay in the next one (its
 * proxy keeps calling whatever `request` was in place when it was made).
 *
 * This marks both modules as already patched while the file runs, so core leaves them alone
 * (it only logs through its own request client then), and puts `fetch` back after each test.
 */
export function isolateZapierCore(): void {
  const modules = [http, https] as unknown as Patchable[];
  let savedFlags: (boolean | undefined)[] = [];
  let savedFetch: typeof fetch;

  beforeAll(() => {
    savedFlags = modules.map((module) => module.patchedByZapier);
    savedFetch = globalThis.fetch;
    for (const module of modules) module.patchedByZapier = true;
  });
  afterEach(() => {
    globalThis.fetch = savedFetch;
  });
  afterAll(() => {
    modules.forEach((module, index) => {
      const flag = savedFlags[index];
      if (flag === undefined) delete module.patchedByZapier;
      else module.patchedByZapier = flag;
      delete module.zapierLogger;
    });
    globalThis.fetch = savedFetch;
  });
}
