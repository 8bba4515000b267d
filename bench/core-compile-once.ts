// What the Zapier app would cost if zapier-platform-core compiled its definition once instead of
// twice per call: create-lambda-handler.js calls schemaTools.prepareApp(appRaw) on every call and
// createApp() does it again (core's own comment there: "TODO: Avoid calling prepareApp(appRaw)
// repeatedly"). Both look prepareApp up on the module object at call time, so wrapping it here
// changes what they run. Bench only, in this process, and only while `compiledOnce` runs: the app
// ships with core as it is.
import { createRequire } from 'node:module';

type PrepareApp = (appRaw: object) => object;
const require = createRequire(import.meta.url);
const schemaTools = require('zapier-platform-core/src/tools/schema') as { prepareApp: PrepareApp };
const prepareApp = schemaTools.prepareApp;
const compiled = new WeakMap<object, object>();
let active = false;

// The compiled definition is deep-frozen by prepareApp itself, so handing the same one to every call is safe.
schemaTools.prepareApp = (appRaw) => {
  if (!active) return prepareApp(appRaw);
  const known = compiled.get(appRaw);
  if (known) return known;
  const fresh = prepareApp(appRaw);
  compiled.set(appRaw, fresh);
  return fresh;
};

/** Runs one handler call with the definition compiled once per definition object, then puts core back. */
export async function compiledOnce<T>(call: () => Promise<T>): Promise<T> {
  active = true;
  try {
    return await call();
  } finally {
    active = false;
  }
}
