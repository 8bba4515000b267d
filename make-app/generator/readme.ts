import { connection } from '../../shared/operations/connection.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { makeName } from '../operation-names.ts';
import { makeDescription } from '../wording.ts';

/** The app's README.md (Make shows it as the app's documentation): one line per module. */
export function readme(operations: readonly Operation[]): string {
  const lines = operations.filter((op) => op.kind !== 'list').map((op) => `- **${makeName(op).label}**: ${makeDescription(op)}`);
  return [
    connection.label,
    '='.repeat(connection.label.length),
    '',
    'On-call and incident management: raise incidents, keep the on-call directory in sync, find who is on call,',
    'and react the moment the people on call change.',
    '',
    `Connect with an API key: an org admin generates it in the [${connection.dashboard.name}](${connection.dashboard.url}) (API keys). The key acts as the`,
    'person who generated it, so modules marked "org admin" need an org admin\'s key.',
    '',
    ...lines,
    '- **Make an API call**: any other call to the Pagerly API, with the connection’s key.',
    '',
  ].join('\n');
}
