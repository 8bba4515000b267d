// Runs the steps one after another through @makehq/sdk, noting the requests each one sent.
import { Make, MakeError } from '@makehq/sdk';
import type { Action, Deploy, Step } from './step.ts';

export interface ApiCall {
  method: string;
  path: string;
}

/** The SDK's client, noting each request it sends (`handleRequest` is the SDK's override point for that). */
export class RecordingMake extends Make {
  calls: ApiCall[] = [];
  protected override async handleRequest(url: string, init?: RequestInit): Promise<Response> {
    this.calls.push({ method: init?.method ?? 'GET', path: new URL(url).pathname });
    return super.handleRequest(url, init);
  }
}

export interface StepOutcome {
  title: string;
  action: Action;
  /** The requests the step sent, in order. */
  calls: ApiCall[];
}

/** A step failed; nothing after it was sent. `call` is the request that failed, if one was sent. */
export class DeployStepError extends Error {
  readonly failure: { index: number; total: number; title: string; call?: ApiCall; status?: number; completed: readonly StepOutcome[] };
  constructor(failure: DeployStepError['failure'], message: string) {
    super(message);
    this.failure = failure;
  }
}

export async function runSteps(
  steps: readonly Step[],
  make: RecordingMake,
  deploy: Deploy,
  onStep: (outcome: StepOutcome, index: number) => void,
): Promise<StepOutcome[]> {
  const outcomes: StepOutcome[] = [];
  for (const [index, step] of steps.entries()) {
    make.calls = [];
    try {
      const { action, title = step.title } = await step.run(deploy);
      outcomes.push({ title, action, calls: make.calls });
      onStep(outcomes.at(-1)!, index);
    } catch (error) {
      const failure = { index, total: steps.length, title: step.title, call: make.calls.at(-1), completed: outcomes };
      throw new DeployStepError({ ...failure, ...(error instanceof MakeError ? { status: error.statusCode } : {}) }, messageOf(error));
    }
  }
  return outcomes;
}

/** The error's message, with its cause's (a failed fetch says why only there). */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
