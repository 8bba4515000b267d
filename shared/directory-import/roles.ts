import type { settableRoles } from '../schemas/primitives.ts';
import type { SourceId } from './sources.ts';

export type DirectoryRole = (typeof settableRoles)[number];

/**
 * Each source's roles, as its users API names them (compared ignoring letter case), and the
 * directory role each becomes. Owners and admins stay admins; every other role (read-only,
 * observer, stakeholder, limited, restricted) becomes a user, never an admin; so does a role
 * not listed here (an Opsgenie custom role, a role a vendor adds later), which the summary
 * names. docs/migrate.md shows this table (a test holds the two together).
 *
 * - Opsgenie: owner, admin, user, stakeholder, observer (User Roles: "Observer role is only
 *   available for old plan customers"), or a custom role's name (User API, `role.name`).
 * - PagerDuty: the `role` enum of the User schema (PagerDuty/api-schema, openapiv3.json).
 * - Grafana OnCall: `admin`, `editor`, `viewer`, `none` (engine/apps/public_api/serializers/users.py:
 *   LegacyAccessControlRole's names, lowered); the users reference page names `admin`, `user`, `observer`.
 */
export const ROLE_TABLE: Readonly<Record<SourceId, Readonly<Record<string, DirectoryRole>>>> = {
  opsgenie: { owner: 'admin', admin: 'admin', user: 'user', stakeholder: 'user', observer: 'user' },
  pagerduty: {
    owner: 'admin',
    admin: 'admin',
    user: 'user',
    limited_user: 'user',
    observer: 'user',
    restricted_access: 'user',
    read_only_user: 'user',
    read_only_limited_user: 'user',
  },
  'grafana-oncall': { admin: 'admin', editor: 'user', viewer: 'user', none: 'user', user: 'user', observer: 'user' },
};

/** The directory role a role of this source becomes; `known` is false for one the table does not list. */
export function mappedRole(source: SourceId, role: string | undefined): { role: DirectoryRole; known: boolean } {
  const key = role?.trim().toLowerCase() ?? '';
  const table = ROLE_TABLE[source];
  if (Object.hasOwn(table, key)) return { role: table[key]!, known: true };
  return { role: 'user', known: false };
}

/** The table as docs/migrate.md shows it, one Markdown row per source role. */
export function roleTableMarkdown(): string {
  const names: Record<SourceId, string> = { opsgenie: 'Opsgenie', pagerduty: 'PagerDuty', 'grafana-oncall': 'Grafana OnCall' };
  const rows = (Object.keys(ROLE_TABLE) as SourceId[]).flatMap((source) =>
    Object.entries(ROLE_TABLE[source]).map(([from, to]) => `| ${names[source]} | \`${from}\` | \`${to}\` |`),
  );
  const others = (Object.keys(ROLE_TABLE) as SourceId[]).map((source) => `| ${names[source]} | any other role | \`user\` (named in the summary) |`);
  return ['| Source | Role there | Role in the directory |', '| --- | --- | --- |', ...rows, ...others].join('\n');
}
