import type { SDKWebhookSectionType } from '@makehq/sdk';
import { connectionsOf, ensureNamed, remoteName, type ComponentKind } from '../step.ts';

// The editor's `update` directive has no section in the SDK: a webhook with one is refused (plan.ts).
export const webhookKind: ComponentKind<SDKWebhookSectionType> = {
  type: 'webhook',
  label: 'webhook',
  sections: { communication: 'api', params: 'parameters', attach: 'attach', detach: 'detach', requiredScope: 'scope' },
  ensure: (id, meta) => (deploy) =>
    ensureNamed(deploy, 'webhook', id, async () => {
      // `connection` travels with the SDK's call although its body type lacks it: attach/detach use it (Make's editor sends it).
      const answer = await deploy.make.sdk.webhooks.create(deploy.app.name, {
        type: meta.webhookType ?? 'web',
        label: meta.label ?? id,
        ...connectionsOf(deploy, meta),
      });
      return answer as typeof answer & { name?: string };
    }),
  setSection: (deploy, id, section, text) => deploy.make.sdk.webhooks.setSection(remoteName(deploy, 'webhook', id), section, text),
};
