import type { Step, StepResult } from './step.ts';

const tty = Boolean(process.stdout.isTTY);
const color = (code: number, text: string) => (tty ? `\u001b[${code}m${text}\u001b[0m` : text);
const pad = (text: string, width: number) => (text.length >= width ? text : text + ' '.repeat(width - text.length));
const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

/** On a terminal, what is running right now, on one line that the result then replaces. */
export function showRunning(step: Step): void {
  if (tty) process.stdout.write(`\r\u001b[2K  … ${step.platform} ${step.operation}`);
}

export function printResult({ step, ok, text, ms }: StepResult): void {
  if (tty) process.stdout.write('\r\u001b[2K');
  const mark = ok ? color(32, '✔') : color(31, '✘');
  const time = `${ms.toFixed(0).padStart(5)} ms`;
  console.log(
    `  ${mark} ${pad(step.platform, 7)} ${pad(step.operation, 28)} ${pad(clip(step.calls, 44), 44)} → ${ok ? clip(text, 70) : color(31, text)} ${color(90, time)}`,
  );
}

export function printHeading(text: string): void {
  if (tty) process.stdout.write('\r\u001b[2K');
  console.log(`\n${color(1, text)}`);
}

export function printSummary(results: readonly StepResult[], seconds: number): void {
  const failed = results.filter((r) => !r.ok);
  const by = (platform: string) => results.filter((r) => r.step.platform === platform);
  const count = (platform: string) => `${by(platform).filter((r) => r.ok).length}/${by(platform).length}`;
  console.log(
    `\n${failed.length ? color(31, `${failed.length} of ${results.length} operations failed`) : color(32, `All ${results.length} operations passed`)}` +
      ` (Zapier ${count('Zapier')}, Make ${count('Make')}, ${by('n8n').length ? `n8n ${count('n8n')}` : 'n8n not run'}, sandbox checks ${count('Sandbox')}) in ${seconds.toFixed(1)} s.`,
  );
  console.log('New here? Start from a ready-made flow for your platform: templates/README.md (n8n, Make, Zapier, GitHub Actions).');
}
