import { forbidden, notFound } from '../http/service-error.ts';
import type { Person } from '../world/records.ts';
import { directoryEntryView } from '../world/views.ts';
import type { WorldState } from '../world/world.ts';
import { catalogRoutes } from './catalog-routes.ts';

/**
 * The on-call user directory, keyed by e-mail without regard to letter case (assumptions
 * `directory-*`, `roles`). The owner's entry is the dashboard's business: replacing it,
 * changing its role or removing it is refused; its phone can be updated like anyone's.
 */
export const directoryRoutes = catalogRoutes('directory routes', {
  getDirectoryEntry: ({ input, caller, world }) => directoryEntryView(entryOf(world, caller.organization.id, input.email)),

  upsertDirectoryEntry: ({ input, caller, world, reply }) => {
    const orgId = caller.organization.id;
    const existing = world.personByEmail(orgId, input.email);
    if (!existing) {
      const person = world.addPerson(orgId, { email: input.email, name: input.name, phone: input.phone ?? null, role: input.role ?? 'user' });
      reply.code(201);
      return directoryEntryView(person);
    }
    refuseOwner(existing, 'replaced');
    // Replace: an omitted phone clears it, an omitted role is kept (assumption `directory-upsert`).
    existing.name = input.name;
    existing.phone = input.phone ?? null;
    if (input.role !== undefined) existing.role = input.role;
    return directoryEntryView(existing);
  },

  updateDirectoryPhone: ({ input, caller, world }) => {
    const person = entryOf(world, caller.organization.id, input.email);
    person.phone = input.phone;
    return directoryEntryView(person);
  },

  changeDirectoryRole: ({ input, caller, world }) => {
    const person = entryOf(world, caller.organization.id, input.email);
    refuseOwner(person, 'given another role');
    person.role = input.role;
    return directoryEntryView(person);
  },

  removeDirectoryEntry: ({ input, caller, world, request }) => {
    const person = entryOf(world, caller.organization.id, input.email);
    refuseOwner(person, 'removed');
    world.removePerson(person);
    // Leaving the rotations may hand a shift to someone else right now.
    request.server.onCallWatcher.check();
    return { email: person.email, removed: true };
  },
});

function entryOf(world: WorldState, orgId: string, email: string): Person {
  const person = world.personByEmail(orgId, email);
  if (!person) throw notFound(`No directory entry for "${email}" in this organization`);
  return person;
}

function refuseOwner(person: Person, action: string): void {
  if (person.role === 'owner') {
    throw forbidden(`The organization's owner cannot be ${action} through the API; ownership is managed in the dashboard`);
  }
}
