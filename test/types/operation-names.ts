// Not a jest test: `npm run typecheck` (tsc) checks this file, and each `@ts-expect-error` fails
// the type check if the line under it stops being an error. It proves that a platform's name map
// cannot miss an operation, nor name one that does not exist.
import type { MakeName } from '../../make-app/operation-names.ts';
import { type McpName, mcpNames } from '../../mcp-server/operation-names.ts';
import { makeNames } from '../../make-app/operation-names.ts';
import type { N8nName } from '../../n8n-app/operation-names.ts';
import { n8nNames } from '../../n8n-app/operation-names.ts';
import type { OperationId } from '../../shared/operations/types.ts';
import type { ZapierName } from '../../zapier-app/operation-names.ts';
import { zapierNames } from '../../zapier-app/operation-names.ts';

const { getDirectoryEntry: _zapier, ...zapierMissingOne } = zapierNames;
// @ts-expect-error: a Zapier map without getDirectoryEntry is not a Record<OperationId, ZapierName>.
zapierMissingOne satisfies Record<OperationId, ZapierName>;
// @ts-expect-error: an entry for an id that is no operation is an excess property.
({ ...zapierNames, snoozeIncident: { key: 'snooze_incident', label: 'Snooze Incident' } }) satisfies Record<OperationId, ZapierName>;

const { createIncident: _make, ...makeMissingOne } = makeNames;
// @ts-expect-error: a Make map without createIncident is not a Record<OperationId, MakeName>.
makeMissingOne satisfies Record<OperationId, MakeName>;
// @ts-expect-error: an entry for an id that is no operation is an excess property.
({ ...makeNames, snoozeIncident: { name: 'snoozeIncident', label: 'Snooze an incident' } }) satisfies Record<OperationId, MakeName>;

const { onCallChanged: _n8n, ...n8nMissingOne } = n8nNames;
// @ts-expect-error: an n8n map without onCallChanged is not a Record<OperationId, N8nName>.
n8nMissingOne satisfies Record<OperationId, N8nName>;
// @ts-expect-error: an entry for an id that is no operation is an excess property.
({ ...n8nNames, snoozeIncident: { resource: 'incident', operation: 'snooze_incident', label: 'Snooze Incident' } }) satisfies Record<OperationId, N8nName>;

// The full maps are what the apps use, and they type-check.
zapierNames satisfies Record<OperationId, ZapierName>;
makeNames satisfies Record<OperationId, MakeName>;
n8nNames satisfies Record<OperationId, N8nName>;

const { listTeams: _mcp, ...mcpMissingOne } = mcpNames;
// @ts-expect-error: an MCP map without listTeams is not a Record<OperationId, McpName>.
mcpMissingOne satisfies Record<OperationId, McpName>;
mcpNames satisfies Record<OperationId, McpName>;
