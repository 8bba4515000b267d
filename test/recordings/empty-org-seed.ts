import { demoSeed } from '../../sandbox/seed/demo.ts';
import type { Seed } from '../../sandbox/seed/schema.ts';

/** A fake key of an organization with no teams: `allteams` answers `[]` for it. */
export const EMPTY_ORG_KEY = 'sbx_initech_admin_90e4b1d7c26a3f58';

/** The demo world plus Initech, an organization that has not set up any team yet. */
export function withEmptyOrganization(): Seed {
  return {
    ...demoSeed,
    organizations: [
      ...demoSeed.organizations,
      {
        id: 'org_initech',
        name: 'Initech',
        people: [{ id: 'usr_peter', name: 'Peter Gibbons', email: 'peter@initech.example', imageurl: null, phone: null, role: 'admin' }],
        apiKeys: [{ key: EMPTY_ORG_KEY, personId: 'usr_peter' }],
        teams: [],
        rotations: [],
      },
    ],
  };
}
