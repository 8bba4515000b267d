import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ActionCore, runAction } from '../../github-action/runtime/main.ts';
import { loopbackServer } from '../support/loopback-server.ts';
import { printedForms } from './support.ts';

/**
 * A service (or anything between it and the runner) that answers with text meant for the
 * runner: every line the Action prints to the log is read for workflow commands (`::name::`),
 * so service text in an unescaped line could set outputs, add masks or stop commands.
 */
const KEY = 'pk_live_hostile_action_key_0123';

function recordingCore(inputs: Record<string, string>) {
  const events: string[] = [];
  const core: ActionCore = {
    getInput: ((name: string) => inputs[name] ?? '') as ActionCore['getInput'],
    setSecret: () => undefined,
    setOutput: (name, value) => void events.push(`output ${name}=${value}`),
    setFailed: (message) => void events.push(`failed ${message}`),
    info: (message) => void events.push(`info ${message}`),
    warning: (message) => void events.push(`warning ${message}`),
  };
  return { core, events };
}

async function runAgainst(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const service = await loopbackServer((request, response) => {
    request.resume();
    request.on('end', () => answer(request, response));
  });
  try {
    const { core, events } = recordingCore({ 'api-key': KEY, title: 'Deploy failed', 'base-url': service.url });
    await runAction(core);
    return events;
  } finally {
    await service.close();
  }
}

/** The lines of what went to the log through core.info (which, unlike warning and error, does not escape its data). */
const infoLines = (events: readonly string[]) =>
  events.filter((event) => event.startsWith('info ')).flatMap((event) => event.slice('info '.length).split(/\r\n|\r|\n/));

describe('the Action against a hostile service', () => {
  it("prints no workflow command from the created incident's id or status", async () => {
    const events = await runAgainst((_request, response) =>
      response
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 'inc_1\n::add-mask::inc_1\n::error::forged', status: 'open\r::stop-commands::x' })),
    );
    expect(events.some((event) => event.startsWith('failed '))).toBe(false);
    const lines = infoLines(events);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toMatch(/^\s*::/);
  });

  it('prints no workflow command from an id read in the Location header', async () => {
    const events = await runAgainst((_request, response) =>
      response.writeHead(201, { location: '/incidents/inc_2%0A::error::forged', 'content-type': 'text/plain' }).end('created'),
    );
    for (const line of infoLines(events)) expect(line).not.toMatch(/^\s*::/);
  });

  it('shows the key in no form when the service echoes it in base64 or hex', async () => {
    const echo = `bad key ${Buffer.from(KEY).toString('base64')} / ${Buffer.from(KEY).toString('hex')} / ${Buffer.from(KEY).toString('hex').toUpperCase()}`;
    const events = await runAgainst((_request, response) =>
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: echo })),
    );
    expect(events.some((event) => event.startsWith('failed '))).toBe(true);
    for (const event of events) for (const form of printedForms(KEY)) expect(event).not.toContain(form);
    for (const event of events) expect(event).not.toContain(Buffer.from(KEY).toString('hex').toUpperCase());
  });

  it('gives no output or log line holding the key when the service puts it in Location', async () => {
    const events = await runAgainst((_request, response) =>
      response.writeHead(201, { location: `/incidents/${encodeURIComponent(KEY)}`, 'content-type': 'text/plain' }).end('created'),
    );
    for (const event of events) for (const form of printedForms(KEY)) expect(event).not.toContain(form);
  });

  it("shows the bidi and zero-width controls of the service's reason and note, never applied (shared/visible-controls.ts)", async () => {
    const refused = await runAgainst((_request, response) =>
      response.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify([{ Error: 'Title Deploy \u202Egnp.exe\u202C is taken' }])),
    );
    const noted = await runAgainst((_request, response) =>
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'inc_9', note: 'Paged Ad\u200bmin \u2067x\u2069' })),
    );
    expect(refused.find((event) => event.startsWith('failed '))).toContain('Deploy \\u202egnp.exe\\u202c');
    expect(noted.find((event) => event.startsWith('warning '))).toBe('warning Paged Ad\\u200bmin \\u2067x\\u2069');
    for (const event of [...refused, ...noted].filter((event) => !event.startsWith('output '))) expect(event).not.toMatch(/[\u202e\u202c\u200b\u2067\u2069]/);
  });
});
