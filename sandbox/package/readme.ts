/** The README of the `@pagerly/sandbox` package, as npm shows it. */
export const SANDBOX_README = `# @pagerly/sandbox

A local stand-in of the Pagerly on-call and incident API, for your tests, your CI and demos:
the documented API plus the assumptions of pagerly-connectors where the spec is silent, demo
organizations and keys, a clock you can move (on-call rotations hand over), incidents, the
directory, hook subscriptions with their deliveries and retries, injected faults. It is a
model of the service, not the service. Node 22 or later; nothing else to install.

\`\`\`sh
npx -y @pagerly/sandbox --port 4010     # prints the API base, the demo keys and the console's address
\`\`\`

Flags: \`--port N\` (0 picks a free one), \`--seed FILE\` or \`--scale-teams N\`, \`--fixed-clock\`,
\`--state FILE\`, \`--allowed-hosts NAMES\` (the name a container or proxy reaches it by: it answers
only localhost, 127.0.0.1 and [::1] otherwise); \`--help\` lists them and the keyless controls.
Ctrl-C or SIGTERM stops it.
Point a client at it with \`PAGERLY_BASE_URL=http://127.0.0.1:4010\` and a demo key in
\`PAGERLY_API_KEY\`.

In a test suite, in the same process:

\`\`\`js
import { createSandbox, demoKeys } from '@pagerly/sandbox';

const sandbox = await createSandbox();                 // the demo world, a fixed clock
const baseUrl = await sandbox.listen({ port: 0 });     // http://127.0.0.1:<free port>
// ... call baseUrl with the key demoKeys.acmeAdmin; move time with sandbox.clock.advance(ms)
await sandbox.close();
\`\`\`

Guide, with example tests for Node's test runner and jest and a GitHub Actions job:
https://github.com/pagerly/pagerly-connectors/blob/main/docs/sandbox.md
`;
