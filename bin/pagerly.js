#!/usr/bin/env node
// The `pagerly` command. Plain JavaScript, so that an old Node gets a clear message
// instead of a syntax error: the command line itself is TypeScript, which Node runs
// directly from 22.18 on (type stripping).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    `pagerly needs Node.js 22.18 or later (it runs TypeScript directly); this is Node ${process.versions.node}.\n` +
      "Inside this repository, `npx pagerly ...` uses the project's own Node 22; elsewhere, install a newer Node.\n",
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
const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
});

const { main } = await import('../cli/main.ts');
// exitCode rather than exit(): stdout is flushed before the process ends, even on a pipe.
const code = await main(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr, signal: interrupt.signal });
process.exitCode = code;
// A command abandoned on Ctrl-C may leave a request open: end once the output is written.
if (interrupt.signal.aborted) process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
