/**
 * One example for every command's `--help`, keyed by the command's path. A test runs
 * `--help` on every command and fails when one has none, so a new command needs one here.
 */
export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  check: ['pagerly check                     # Grace Hopper (Acme)'],
  teams: ["pagerly teams --json | jq -r '.teams[].name'"],
  'on-call': ['pagerly on-call --team Payments', 'pagerly on-call --json            # every team'],
  'on-call watch': ['pagerly on-call watch --interval 2m --state ~/.pagerly-on-call.json | while read -r change; do ...; done'],
  incident: ['id=$(pagerly incident create --title "Deploy failed" --severity P2)', 'pagerly incident update "$id" --title "Deploy failed" --status resolved'],
  'incident create': ['id=$(pagerly incident create --title "Deploy of $SHA failed" --severity P2 --team Payments)'],
  'incident update': ['pagerly incident update "$id" --title "Deploy of $SHA failed" --status acknowledged'],
  directory: ['pagerly directory get grace@acme.example', 'pagerly directory sync people.csv --dry-run'],
  'directory get': ['pagerly directory get grace@acme.example --json'],
  'directory set': ['pagerly directory set new.hire@acme.example --name "New Hire" --phone "+1 415 555 0199" --role user'],
  'directory phone': ['pagerly directory phone grace@acme.example "+1 (415) 555-0123"'],
  'directory role': ['pagerly directory role alan@acme.example admin'],
  'directory remove': [
    'pagerly directory remove gone@acme.example',
    'pagerly directory remove me@acme.example --force   # your own entry: this key stops working',
  ],
  mcp: [
    'PAGERLY_API_KEY=... pagerly mcp                        # what an MCP host runs; see docs/mcp.md',
    'PAGERLY_API_KEY=... pagerly mcp --enable-write-tools   # incidents and the directory too',
    'pagerly mcp --tools list_on_call_users,list_teams      # only these tools',
    'pagerly mcp --http --key-from-header                   # http://127.0.0.1:8791/mcp, each client its own key',
  ],
  'directory sync': ['pagerly directory sync people.csv --dry-run   # see the plan first', 'pagerly directory sync people.csv --concurrency 8'],
  'directory import': [
    'OPSGENIE_API_KEY=... pagerly directory import opsgenie --out people.yaml',
    'PAGERDUTY_API_TOKEN=... pagerly directory import pagerduty --out people.csv --json > import.json',
  ],
};

/** The help text after a command's own: "Example:" and its lines, or nothing when it has none. */
export function exampleHelp(path: string): string {
  const lines = EXAMPLES[path];
  if (!lines) return '';
  return `\n${lines.length === 1 ? 'Example' : 'Examples'}:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}
