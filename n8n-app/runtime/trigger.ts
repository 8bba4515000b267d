import { NotFoundError } from '../../shared/errors.ts';
import { isForTeam, onCallChangeItem } from '../../shared/operations/on-call-change-item.ts';
import { EVENT_ID_HEADER } from '../../shared/schemas/on-call-change-event.ts';
import { endpointInput } from '../../shared/operations/endpoint-input.ts';
import { SUBSCRIPTION_ID_KEY } from '../names.ts';
import { pagerlyFor } from './client.ts';
import { toN8nError } from './errors.ts';
import type { DataObject, ExecutionItem, N8nErrorClasses, N8nHookContext, N8nWebhookContext } from './n8n-api.ts';
import { n8nHookEndpoints } from '../hook-endpoints.ts';
import { hookOperation } from './operations.ts';

function triggerInput(context: Pick<N8nHookContext<unknown>, 'getNodeParameter'>): Record<string, unknown> {
  const fields = hookOperation().inputFields;
  return endpointInput(fields, Object.fromEntries(fields.map((field) => [field.key, context.getNodeParameter(field.key, '')])));
}

const storedId = (context: N8nHookContext<unknown>) => {
  const id = context.getWorkflowStaticData('node')[SUBSCRIPTION_ID_KEY];
  return typeof id === 'string' && id !== '' ? id : undefined;
};

/**
 * `webhookMethods.default` of the trigger. The API cannot list subscriptions, so one exists
 * when activation stored its id; n8n calls `create` when it does not, `delete` on deactivation.
 */
export const subscriptionLifecycle = {
  checkExists<Node>(context: N8nHookContext<Node>): boolean {
    return storedId(context) !== undefined;
  },

  async create<Node>(context: N8nHookContext<Node>, classes: N8nErrorClasses<Node>): Promise<boolean> {
    const url = context.getNodeWebhookUrl('default') ?? '';
    try {
      const subscription = await (await pagerlyFor(context)).call(n8nHookEndpoints.subscribe, { ...triggerInput(context), url } as never);
      context.getWorkflowStaticData('node')[SUBSCRIPTION_ID_KEY] = String((subscription as { id: unknown }).id);
      return true;
    } catch (error) {
      throw toN8nError(error, context.getNode(), classes);
    }
  },

  async delete<Node>(context: N8nHookContext<Node>, classes: N8nErrorClasses<Node>): Promise<boolean> {
    const id = storedId(context);
    const data = context.getWorkflowStaticData('node');
    if (id !== undefined) {
      try {
        await (await pagerlyFor(context)).call(n8nHookEndpoints.unsubscribe, { id } as never);
      } catch (error) {
        // Already gone (the service drops a hook that answered 410): the goal is reached.
        if (!(error instanceof NotFoundError)) throw toN8nError(error, context.getNode(), classes);
      }
    }
    delete data[SUBSCRIPTION_ID_KEY];
    return true;
  },
};

const headerValue = (headers: Record<string, unknown>, name: string) => {
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
};

/**
 * A delivery to the trigger's webhook: the same item the Zapier and Make triggers give
 * (shared `onCallChangeItem`); a change of another team starts no execution.
 */
export function receiveDelivery<Node>(context: N8nWebhookContext<Node>): { workflowData?: ExecutionItem[][] } {
  const item = onCallChangeItem(context.getBodyData(), new Date(), headerValue(context.getHeaderData(), EVENT_ID_HEADER));
  const teamname = triggerInput(context).teamname as string | undefined;
  if (!isForTeam(item, teamname)) return {};
  return { workflowData: [[{ json: item as DataObject }]] };
}
