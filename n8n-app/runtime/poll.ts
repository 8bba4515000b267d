import { everyoneOnCall, onCallByTeam, type TeamOnCall } from '../../shared/on-call/by-team.ts';
import { changesBetween, nextSnapshot, ON_CALL_CHANGE_TYPES, type OnCallChange } from '../../shared/on-call/changes.ts';
import { fieldValue, parameterPath } from '../parameters.ts';
import { pagerlyFor } from './client.ts';
import { toN8nError } from './errors.ts';
import type { DataObject, ExecutionItem, N8nErrorClasses, N8nPollContext } from './n8n-api.ts';
import { hookOperation } from './operations.ts';
import { storedSnapshot, storeSnapshot } from './poll-state.ts';

/** The Team parameter (the hook's optional team field, a resource locator): a name, or null for every team. */
function watchedTeam(context: N8nPollContext): string | null {
  const hook = hookOperation();
  const field = hook.inputFields.find((f) => f.dynamic === 'team');
  if (!field) return null;
  const [name, key] = parameterPath(hook, field);
  const parameter = context.getNodeParameter(name!, key === undefined ? '' : {});
  const value = fieldValue(
    key === undefined ? parameter : parameter !== null && typeof parameter === 'object' ? (parameter as Record<string, unknown>)[key] : undefined,
  );
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

const items = (changes: readonly OnCallChange[]): ExecutionItem[][] => [changes.map((change) => ({ json: { ...change } as DataObject }))];

/**
 * "Fetch Test Event": the people on call now, each as the change that put them on call, so the
 * editor shows real fields to map. It reads what a poll reads and keeps nothing: the next
 * scheduled poll still compares with the last scheduled one.
 */
function sample(context: N8nPollContext, classes: N8nErrorClasses, answers: readonly TeamOnCall[], now: Date): ExecutionItem[][] {
  const { onCall, failed } = everyoneOnCall(answers);
  if (onCall.length === 0 && failed.length > 0) throw toN8nError(failed[0]!.error, context.getNode(), classes);
  if (onCall.length === 0) {
    throw new classes.NodeOperationError(context.getNode(), 'Nobody is on call in the watched teams right now, so there is no sample to show.', {
      description: 'The trigger emits one item each time someone goes on or off call; try again when someone is on call, or choose another team.',
    });
  }
  const detected_at = now.toISOString();
  return items(onCall.map(({ team, ...user }) => ({ type: ON_CALL_CHANGE_TYPES.started, team, user, detected_at })));
}

/**
 * The trigger's `poll`, from documented calls only: the team list, then who is on call in each
 * watched team (`shared/on-call/by-team.ts`), compared with the snapshot the last poll left in
 * the workflow's static data. One item per person going on or off call, the items the CLI's
 * `on-call watch` prints; `null` (n8n's "nothing new") when nobody did, and on the first poll,
 * which only learns who is on call. One team that cannot be read keeps its last known state
 * and is read again at the next poll; a team list that cannot be read (a refused key, an
 * unreachable service) fails the poll with n8n's error, which n8n shows.
 */
export async function pollOnCallChanges(
  context: N8nPollContext,
  classes: N8nErrorClasses,
  now: () => Date = () => new Date(),
): Promise<ExecutionItem[][] | null> {
  const team = watchedTeam(context);
  let answers: TeamOnCall[];
  try {
    answers = await onCallByTeam(await pagerlyFor(context), { team: team ?? undefined });
  } catch (error) {
    throw toN8nError(error, context.getNode(), classes);
  }
  if (context.getMode() === 'manual') return sample(context, classes, answers, now());
  const staticData = context.getWorkflowStaticData('node');
  const previous = storedSnapshot(staticData, team);
  const snapshot = nextSnapshot(previous, answers);
  const changes = changesBetween(previous, snapshot, now());
  storeSnapshot(staticData, team, snapshot);
  return changes.length > 0 ? items(changes) : null;
}
