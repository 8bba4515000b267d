import { catalogRoutes } from './catalog-routes.ts';

/** `GET /o/test/apikey` (assumption `apikey-check`): whose key it is, never the key. */
export const apiKeyRoutes = catalogRoutes('api-key routes', {
  checkApiKey: ({ caller: { person, organization } }) => ({
    valid: true,
    user: { id: person.id, name: person.name, email: person.email, role: person.role },
    organization: { id: organization.id, name: organization.name },
  }),
});
