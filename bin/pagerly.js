#!/usr/bin/env node
// The `pagerly` command. Plain JavaScript, so that an old Node gets a clear message
// instead of a syntax error. In the checkout the command line is TypeScript, which Node runs
// directly from 22.18 on (type stripping); the @pagerly/cli package bundles this file with it.
// The @pagerly/cli package's build defines PAGERLY_PACKAGE (esbuild's `define`): the package
// bundles undici 8, which needs 22.19, and its user has no checkout whose Node to borrow.
const packaged = typeof PAGERLY_PACKAGE !== 'undefined';
const [needMajor, needMinor] = packaged ? [22, 19] : [22, 18];
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  process.stderr.write(
    `pagerly needs Node.js ${needMajor}.${needMinor} or later; this is Node ${process.versions.node}.\n` +
      (packaged
        ? 'Install a newer Node (from nodejs.org, or with your version manager, e.g. `nvm install 22`) and run it again.\n'
        : "Inside this repository, `npm exec pagerly ...` uses the project's own Node 22; elsewhere, install a newer Node.\n"),
  );
  process.exit(1);
}

// `pagerly teams | head -1`: a reader that stops early is not an error of ours.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// Ctrl-C: the first one asks the command to stop (a sync finishes the requests in flight and
// reports what was applied); a second one ends the process at once, as Ctrl-C usually does.
// Under `npm exec` a terminal's Ctrl-C arrives twice, a moment apart (npm passes its own copy
// on): that is one press (shared/shutdown/drain.ts, SAME_REQUEST_MS).
const interrupt = new AbortController();
let interruptedAt = 0;
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) {
    if (Date.now() - interruptedAt >= 250) process.exit(130);
    return;
  }
  interruptedAt = Date.now();
  interrupt.abort();
});

// Node keeps the compiled code of the modules it loads (in the system's temporary folder), so
// later runs start faster; a Node without it, or a folder it cannot write, just compiles again.
(await import('node:module')).enableCompileCache?.();

const { main } = await import('../cli/main.ts');
// exitCode rather than exit(): stdout is flushed before the process ends, even on a pipe.
const code = await main(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr, signal: interrupt.signal });
process.exitCode = code;
// A command abandoned on Ctrl-C may leave a request open: end once the output is written.
if (interrupt.signal.aborted) process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
