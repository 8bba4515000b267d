#!/usr/bin/env node
// The `pagerly` command. Plain JavaScript, so that an old Node gets a clear message
// instead of a syntax error: the command line itself is TypeScript, which Node runs
// directly from 22.18 on (type stripping).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    `pagerly needs Node.js 22.18 or later (it runs TypeScript directly); this is Node ${process.versions.node}.\n` +
      'Inside this repository, `npx pagerly ...` uses the project\'s own Node 22; elsewhere, install a newer Node.\n',
  );
  process.exit(1);
}

// `pagerly teams | head -1`: a reader that stops early is not an error of ours.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const { main } = await import('../cli/main.ts');
// exitCode rather than exit(): stdout is flushed before the process ends, even on a pipe.
process.exitCode = await main(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr });
