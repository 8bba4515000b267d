import type { ErrorKind } from '../surfaces/driver.ts';

/**
 * The conformance table: answers the service may give, and the outcome each must come to on
 * every surface of test/surfaces/ (conformance.test.ts runs each row on each through its real
 * runtime). A row holds for every surface unless `on` names one, with the reason it differs on
 * purpose; a surface without the row's call is reported as such, never left out silently.
 *
 * The rules the rows hold (shared/http/response.ts, shared/operations/):
 * - a key check is answered by its status: any 2xx is a valid key, whatever the body; 400
 *   naming the key, 401 and 403 are a refused key with the service's text; 429 and 5xx are the
 *   service in trouble, not a bad key;
 * - a create answered 2xx was done, whatever the body: its id is read where the service put it
 *   (the top level, `incident_id`/`incidentId`, one wrapping object, a list's first element,
 *   `Location`); with none, the id is empty, the answer is passed on (bounded) and a note says so;
 * - a directory write answered 2xx was done too, whatever the body: one record, a page or a list
 *   passed on under `answer`;
 * - a documented list (teams, who is on call) answered `[]` is empty; `{}`, an empty body or
 *   HTML is an invalid answer; unknown fields are kept;
 * - removing a hook answered 404, 405 or 410 finds it already gone;
 * - everyone on call is one result per person and team, each summing up its own team only, so
 *   someone on call in two teams is two results and once in each team's summary; where a
 *   surface gives only so many (n8n's Limit, MCP's limit), it reads only the teams that hold them;
 * - 429 says when to retry, in terms a person reads; 5xx is the service failing, quoting a
 *   short, redacted excerpt of what came;
 * - an e-mail is taken by the one address rule (shared/schemas/email-address.ts): any address
 *   a mail system takes reaches the service, encoded in the query; what cannot be an address
 *   is refused before anything is sent.
 */

/** The calls of a driver (test/surfaces/driver.ts) the table makes: `read` lists teams, `write` creates an incident, `directoryWrite` changes a phone number. */
export type CallName = 'checkKey' | 'read' | 'onCall' | 'everyoneOnCall' | 'write' | 'directoryEntry' | 'directoryWrite' | 'unsubscribe';

/** What the service answers: the same answer to every request of the call (a retry meets it again). */
export interface Answer {
  readonly status: number;
  /** Sent as Content-Type, when given. */
  readonly type?: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Served over HTTPS with a self-signed certificate for 127.0.0.1: no client may trust it, so
   * the handshake fails and the answer is never read (nor the request sent).
   */
  readonly tls?: 'self-signed';
}

/** What a success must hold: a list of `count` items, these texts somewhere in it, or nothing found. */
export interface ValueMatch {
  readonly count?: number;
  readonly holds?: readonly string[];
  /** The record's `id` (a create's): `''` for none, which the CLI's --json writes as null. */
  readonly id?: string;
  /** The most characters the value may take as JSON: what is passed on is bounded. */
  readonly shorterThan?: number;
  /** Texts it must not hold anywhere. */
  readonly lacks?: readonly string[];
  /** No record with any content: `[]`, `{}`, `[{}]`, a record of empty fields. */
  readonly nothing?: true;
  /** In each item of the list, `text` at most `times` times (a person once as themselves, once in a summary). */
  readonly eachHoldsAtMost?: { readonly text: string; readonly times: number };
}

export type Expected =
  | { readonly ok: true; readonly value?: ValueMatch }
  | {
      readonly ok: false;
      /** The shared error code (shared/errors.ts). */
      readonly kind: ErrorKind;
      /** Fragments the message must hold (case-insensitive for texts). */
      readonly says?: readonly (string | RegExp)[];
      /** Fragments it must not. */
      readonly saysNot?: readonly (string | RegExp)[];
    };

/** Surfaces by the `name` of their driver. */
export type SurfaceName = 'typed client' | 'typed client (fetch)' | 'CLI' | 'Zapier' | 'Make' | 'n8n' | 'MCP';

export interface Row {
  /** Unique: known-failures.ts and the report name rows by it. */
  readonly name: string;
  readonly call: CallName;
  readonly answer: Answer;
  /** The team list a read of who is on call gets first (default: Platform alone). */
  readonly teams?: readonly { readonly id: string; readonly name: string }[];
  readonly expect: Expected;
  /** The e-mail a directory call is made with (default: `INPUT.email` of test/surfaces/driver.ts). */
  readonly email?: string;
  /**
   * What must reach the service: the query's `email` as given, decoded from what arrived (so
   * an `&` not encoded, or an address sent in another encoding than UTF-8, fails); or
   * `nothing`, for input a surface must refuse before anything is sent.
   */
  readonly sends?: { readonly email: string } | 'nothing';
  /** Where a surface differs on purpose: what it must do instead, and why; with the most requests it may send for it. */
  readonly on?: Partial<Record<SurfaceName, { readonly expect: Expected; readonly why: string; readonly requestsAtMost?: number }>>;
}

/**
 * The key every row is sent with. The 502 page and some error texts quote it: no outcome may
 * hold it, nor a piece of it, in any encoding (conformance.ts checks every outcome).
 */
export const CONFORMANCE_KEY = 'Qz4r-conformance-key-6b0d2f81e3';

const JSON_TYPE = 'application/json; charset=utf-8';
const json = (status: number, value: unknown, headers?: Record<string, string>): Answer => ({
  status,
  type: JSON_TYPE,
  body: JSON.stringify(value),
  ...(headers ? { headers } : {}),
});
const said = (status: number, text: string, headers?: Record<string, string>) => json(status, [{ Error: text }], headers);
const empty = (status: number, type?: string): Answer => ({ status, body: '', ...(type ? { type } : {}) });

/** A proxy's error page: long, quoting the key, its end marked so a message that quotes all of it shows. */
const BAD_GATEWAY_PAGE = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><p>upstream failed for X-APIKEY ${CONFORMANCE_KEY}</p>${'<p>nginx</p>'.repeat(300)}<p>END-OF-PAGE</p></body></html>`;
const LOGIN_PAGE = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form action="/login">Sign in to Pagerly</form></body></html>';
const html = (status: number, page: string): Answer => ({ status, type: 'text/html; charset=utf-8', body: page });

const TEAM = { id: 'team_platform', name: 'Platform' };
/** Teams `team_001` … `team_150`, named `Team 001` …: a list in id order, so every surface's first results are the same. */
const MANY_TEAMS = Array.from({ length: 150 }, (_, i) => ({ id: `team_${String(i + 1).padStart(3, '0')}`, name: `Team ${String(i + 1).padStart(3, '0')}` }));
const PERSON = { id: 'usr_grace', name: 'Grace Hopper', email: 'grace@example.com', imageurl: 'https://img.example/grace.png' };
const OTHER_PERSON = { id: 'usr_edsger', name: 'Edsger Dijkstra', email: 'edsger@example.com', imageurl: null };
const INCIDENT = {
  id: 'inc_0001',
  title: 'Disk full',
  severity: 'P2',
  status: 'triggered',
  description: null,
  teamname: null,
  created_at: '2026-11-02T08:00:00Z',
  updated_at: '2026-11-02T08:00:00Z',
};
const ENTRY = { id: 'dir_grace', email: 'grace@example.com', name: 'Grace Hopper', phone: '+14155550123', role: 'admin', imageurl: null };

/** What the note on a create without a readable id says (shared/operations/created-id.ts `noIdNote`). */
const NO_ID_NOTE = 'gave no id that could be read';

/** A create answered 2xx whose id could not be read: a success, the id empty, the note saying why, `holds` passed on. */
const createdWithoutId = (holds: readonly string[] = []): Expected => ({
  ok: true,
  value: { id: '', holds: [NO_ID_NOTE, ...holds] },
});

/** Make's IML has no date parser: what it may say of a Retry-After it cannot read. */
const MAKE_CANNOT_READ_A_DATE =
  "Make's IML cannot parse an HTTP date nor add seconds to now, and the header's text is never shown (it could hold the key): the generated error says to retry in a minute (response-directives.ts retryAfter); Make's own scheduler decides when";
const makeLaterRetry: Expected = { ok: false, kind: 'rate_limited', says: ['retry in a minute'], saysNot: ['2275376491', 'Jan 2099'] };

/** Make's detach: any 4xx is an error there, so "already gone" is one clear sentence instead. */
const makeAlreadyGone = (status: number) => ({
  expect: { ok: false, kind: 'not_found', says: [`[${status}]`, 'nothing is left to detach'] } as const,
  why: 'Make treats every 4xx or 5xx answer as an error whatever `valid` says (Custom apps › Error handling), so a detach cannot succeed on it: the generated detach says the hook is already gone, in one sentence, for each of 404, 405 and 410 (webhook.ts)',
});

/** A search that finds nothing gives no result, as Zapier and n8n searches must (their guidance). */
const searchFindsNothing = {
  expect: { ok: true, value: { nothing: true } } as const,
  why: "a search that finds nothing is no result, not a failed step (Zapier's search guidance; n8n's node then outputs no item): the shared search takes 404 for no entry (notFoundIsEmpty)",
};

/** What every surface running our code says of a certificate it cannot verify (shared/http/certificate.ts). */
const certificateRefused = {
  ok: false,
  kind: 'certificate',
  says: ['DEPTH_ZERO_SELF_SIGNED_CERT', 'NODE_EXTRA_CA_CERTS'],
  saysNot: ['temporary', 'try again'],
} as const;

/** Make's TLS is Make's: the runner models a connection that fails as Make's ConnectionError. */
const makeOwnTls = {
  expect: { ok: false, kind: 'network', says: ['DEPTH_ZERO_SELF_SIGNED_CERT'] },
  why: "Make runs the generated app on its own servers, with its own HTTP client and trust store: the app's JSON and IML have no code that sees a TLS failure, so the runner (make-app/interpreter/) reports it as any connection that failed",
} as const;

/** A service's text with controls, as a program gets it: the value as it came, for the program to show by the rule. */
const TEXT_AS_IT_CAME: Expected = { ok: false, kind: 'permission', says: ['Team \u202Edegaugal\u202C\u200B is locked\u001b[2J'] };
const LIBRARY_GIVES_TEXT_AS_IT_CAME =
  "a library's error hands the service's text as it came to the program that called it, which decides how to show it; every surface that shows it to a person or an agent shows it by the rule (shared/visible-controls.ts)";

export const rows: readonly Row[] = [
  // The key check: the status is the answer.
  { name: 'key check: 200 JSON', call: 'checkKey', answer: json(200, { valid: true, user: { name: 'Grace Hopper' } }), expect: { ok: true } },
  {
    name: 'key check: 200 text/plain "API Key is valid"',
    call: 'checkKey',
    answer: { status: 200, type: 'text/plain', body: 'API Key is valid' },
    expect: { ok: true },
  },
  { name: 'key check: 204 without a body', call: 'checkKey', answer: empty(204), expect: { ok: true } },
  { name: 'key check: 200 HTML page', call: 'checkKey', answer: html(200, LOGIN_PAGE), expect: { ok: true } },
  {
    name: 'key check: 400 the documented invalid key',
    call: 'checkKey',
    answer: said(400, 'API Key is not valid'),
    expect: { ok: false, kind: 'authentication', says: ['API Key is not valid'] },
  },
  { name: 'key check: 401', call: 'checkKey', answer: said(401, 'API key expired'), expect: { ok: false, kind: 'authentication', says: ['API key expired'] } },
  { name: 'key check: 403', call: 'checkKey', answer: said(403, 'API key revoked'), expect: { ok: false, kind: 'authentication', says: ['API key revoked'] } },
  {
    name: 'key check: 429 is the service busy, not a bad key',
    call: 'checkKey',
    answer: said(429, 'Too many requests', { 'retry-after': '30' }),
    expect: { ok: false, kind: 'rate_limited', says: [/30 s/] },
  },
  {
    name: 'key check: 503 is the service failing, not a bad key',
    call: 'checkKey',
    answer: said(503, 'Maintenance'),
    expect: { ok: false, kind: 'server', says: ['503', 'Maintenance'] },
  },

  // Teams: a documented list.
  { name: 'teams: 200 a list', call: 'read', answer: json(200, [TEAM]), expect: { ok: true, value: { count: 1, holds: ['Platform'] } } },
  { name: 'teams: 200 []', call: 'read', answer: json(200, []), expect: { ok: true, value: { count: 0 } } },
  { name: 'teams: 200 {} where a list is documented', call: 'read', answer: json(200, {}), expect: { ok: false, kind: 'invalid_response' } },
  { name: 'teams: 200 with an empty body', call: 'read', answer: empty(200, JSON_TYPE), expect: { ok: false, kind: 'invalid_response' } },
  { name: 'teams: 200 HTML page', call: 'read', answer: html(200, LOGIN_PAGE), expect: { ok: false, kind: 'invalid_response', says: ['not JSON'] } },
  {
    name: 'teams: unknown extra fields are kept',
    call: 'read',
    answer: json(200, [{ ...TEAM, colour: 'teal', escalation: { after_min: 5 } }]),
    expect: { ok: true, value: { count: 1, holds: ['teal', 'after_min'] } },
    on: {
      Make: {
        expect: { ok: true, value: { count: 1, holds: ['Platform'] } },
        why: "Make's team list is the team dropdown's RPC: its options are {label, value}, Make's shape for a select, with no room for other fields",
      },
      n8n: {
        expect: { ok: true, value: { count: 1, holds: ['Platform'] } },
        why: "n8n's team list is the resource locator's listSearch: its results are {name, value}, n8n's shape for a list result, with no room for other fields",
      },
    },
  },
  { name: 'teams: 401', call: 'read', answer: said(401, 'Unauthorized'), expect: { ok: false, kind: 'authentication', says: ['Unauthorized'] } },
  {
    name: 'teams: 403',
    call: 'read',
    answer: said(403, 'Key disabled for this organization'),
    expect: { ok: false, kind: 'permission', says: ['Key disabled'] },
  },
  {
    name: 'teams: 403 whose text holds bidi, zero-width and terminal controls',
    call: 'read',
    answer: said(403, 'Team \u202Edegaugal\u202C\u200B is locked\u001b[2J'),
    expect: { ok: false, kind: 'permission', says: ['\\u202edegaugal\\u202c\\u200b', '\\x1b[2J'], saysNot: [/[\u202e\u202c\u200b\u001b]/] },
    on: {
      'typed client': { expect: TEXT_AS_IT_CAME, why: LIBRARY_GIVES_TEXT_AS_IT_CAME },
      'typed client (fetch)': { expect: TEXT_AS_IT_CAME, why: LIBRARY_GIVES_TEXT_AS_IT_CAME },
      CLI: {
        expect: TEXT_AS_IT_CAME,
        why: "the driver reads the CLI's --json error, a document for programs: parsed, its text is as it came, each control written there as JSON's own \\u escape (test/cli/terminal-text.test.ts holds what a terminal shows)",
      },
    },
  },
  {
    name: 'teams: 429 with Retry-After: 30',
    call: 'read',
    answer: said(429, 'Slow down', { 'retry-after': '30' }),
    expect: { ok: false, kind: 'rate_limited', says: [/30 s/] },
  },
  {
    name: 'teams: 429 without Retry-After',
    call: 'read',
    answer: said(429, 'Slow down'),
    expect: { ok: false, kind: 'rate_limited', says: [/try again|retry/i] },
  },
  {
    name: 'teams: 429 with Retry-After of 2275376491 s',
    call: 'read',
    answer: said(429, 'Slow down', { 'retry-after': '2275376491' }),
    expect: { ok: false, kind: 'rate_limited', says: [/after \d{4}-\d\d-\d\d \d\d:\d\d UTC/], saysNot: ['2275376491'] },
    on: { Make: { expect: makeLaterRetry, why: MAKE_CANNOT_READ_A_DATE } },
  },
  {
    name: 'teams: 429 with Retry-After as a date in 2099',
    call: 'read',
    answer: said(429, 'Slow down', { 'retry-after': 'Thu, 01 Jan 2099 00:00:00 GMT' }),
    expect: { ok: false, kind: 'rate_limited', says: ['after 2099-01-01 00:00 UTC'], saysNot: [/\d{7,} ?s/] },
    on: { Make: { expect: makeLaterRetry, why: MAKE_CANNOT_READ_A_DATE } },
  },
  {
    name: 'teams: 502 HTML page',
    call: 'read',
    answer: html(502, BAD_GATEWAY_PAGE),
    expect: { ok: false, kind: 'server', says: ['502'], saysNot: ['END-OF-PAGE', /(<p>nginx<\/p>){20}/] },
  },
  {
    name: 'teams: 500 with the service text',
    call: 'read',
    answer: said(500, 'Database unavailable'),
    expect: { ok: false, kind: 'server', says: ['500', 'Database unavailable'] },
  },

  // Who is on call in a team: a documented list.
  { name: 'on call: 200 a list', call: 'onCall', answer: json(200, [PERSON]), expect: { ok: true, value: { count: 1, holds: ['Grace Hopper'] } } },
  { name: 'on call: 200 []', call: 'onCall', answer: json(200, []), expect: { ok: true, value: { count: 0 } } },
  { name: 'on call: 200 {} where a list is documented', call: 'onCall', answer: json(200, {}), expect: { ok: false, kind: 'invalid_response' } },
  { name: 'on call: 200 with an empty body', call: 'onCall', answer: empty(200, JSON_TYPE), expect: { ok: false, kind: 'invalid_response' } },
  { name: 'on call: 200 HTML page', call: 'onCall', answer: html(200, LOGIN_PAGE), expect: { ok: false, kind: 'invalid_response', says: ['not JSON'] } },
  {
    name: 'on call: unknown extra fields are kept',
    call: 'onCall',
    answer: json(200, [{ ...PERSON, pager_rank: 1, shift: { ends: '18:00' } }]),
    expect: { ok: true, value: { count: 1, holds: ['pager_rank', 'ends'] } },
  },
  {
    name: 'on call: 404 for a team that is not there',
    call: 'onCall',
    answer: said(404, 'No team named Platform'),
    expect: { ok: false, kind: 'not_found', says: ['No team named Platform'] },
  },

  // Everyone on call: the team list, then each team by name.
  {
    name: 'everyone on call: a person on call in two teams',
    call: 'everyoneOnCall',
    teams: [TEAM, { id: 'team_payments', name: 'Payments' }],
    // Each team answers the same two people: both are on call in Platform and in Payments.
    answer: json(200, [PERSON, OTHER_PERSON]),
    expect: { ok: true, value: { count: 4, holds: ['Platform', 'Payments'], eachHoldsAtMost: { text: 'Grace Hopper', times: 2 } } },
  },
  {
    name: 'everyone on call: 150 teams, where a surface has a limit it bounds the requests too',
    call: 'everyoneOnCall',
    teams: MANY_TEAMS,
    answer: json(200, [PERSON, OTHER_PERSON]),
    expect: { ok: true, value: { count: 300, holds: ['Team 001', 'Team 150'] } },
    on: {
      n8n: {
        expect: { ok: true, value: { count: 50, holds: ['Team 001', 'Team 025'], lacks: ['Team 026'] } },
        // The team list, the 25 teams of two that hold 50, and at most the three others asked at once.
        requestsAtMost: 1 + 25 + 3,
        why: 'Get Many with Return All off gives its Limit (50 by default), and reads only the teams that hold them: the same first items',
      },
      MCP: {
        expect: { ok: true, value: { count: 100, holds: ['Team 001', 'Team 050'], lacks: ['Team 051'] } },
        requestsAtMost: 1 + 50 + 3,
        why: 'list_on_call_users gives its limit (100 by default) and reads only the teams that hold them; next_cursor goes on',
      },
    },
  },

  // Create an incident: a 2xx is done, whatever the body (assumption `created-id`); the id is read
  // where the service put it, and where none can be read it is empty and a note says so.
  { name: 'create: 201 with an id', call: 'write', answer: json(201, INCIDENT), expect: { ok: true, value: { id: 'inc_0001', holds: ['Disk full'] } } },
  { name: 'create: 200 {}', call: 'write', answer: json(200, {}), expect: createdWithoutId() },
  { name: 'create: 201 with an empty body', call: 'write', answer: empty(201, JSON_TYPE), expect: createdWithoutId() },
  {
    name: 'create: 200 the id in one wrapping object',
    call: 'write',
    answer: json(200, { result: { id: 'INC-7' } }),
    expect: { ok: true, value: { id: 'INC-7', lacks: [NO_ID_NOTE] } },
  },
  {
    name: 'create: 200 the id as incident_id',
    call: 'write',
    answer: json(200, { incident_id: 'INC-7', state: 'open' }),
    expect: { ok: true, value: { id: 'INC-7', holds: ['open'], lacks: [NO_ID_NOTE] } },
  },
  {
    name: 'create: 201 the id as a number named incidentId',
    call: 'write',
    answer: json(201, { incidentId: 7 }),
    expect: { ok: true, value: { id: '7', lacks: [NO_ID_NOTE] } },
  },
  {
    name: 'create: 201 a list of the incident',
    call: 'write',
    answer: json(201, [{ id: 'INC-7', title: 'Disk full' }]),
    expect: { ok: true, value: { id: 'INC-7', lacks: [NO_ID_NOTE] } },
  },
  {
    name: 'create: 201 a bare INC-7 as text',
    call: 'write',
    answer: { status: 201, type: 'text/plain; charset=utf-8', body: 'INC-7' },
    expect: createdWithoutId(['INC-7']),
  },
  {
    name: 'create: 201 empty, the id in Location',
    call: 'write',
    answer: { status: 201, body: '', headers: { location: '/o/incident/INC-7' } },
    expect: { ok: true, value: { id: 'INC-7', lacks: [NO_ID_NOTE] } },
  },
  {
    name: 'create: 201 Location with an encoded id, a query and a fragment',
    call: 'write',
    answer: { status: 201, body: '', headers: { location: 'https://elsewhere.example/incidents/INC%2F7?view=full#top' } },
    expect: { ok: true, value: { id: 'INC/7', lacks: [NO_ID_NOTE] } },
  },
  {
    name: 'create: 200 JSON cut off mid-way',
    call: 'write',
    answer: { status: 200, type: JSON_TYPE, body: '{"incident":{"id":"INC-7","title":"Disk fu' },
    expect: createdWithoutId(['Disk fu']),
    on: {
      Make: {
        expect: { ok: false, kind: 'invalid_response', says: ['does not parse'] },
        why: "Make's engine parses an answer whose Content-Type says JSON before any directive of the app runs (the response `type` is `automatic` by default, enums.json), so a body cut off mid-JSON fails there, before `valid` or `output`; and IML has no JSON parser to read it as text instead (the runner's http-exchange.ts models that)",
      },
    },
  },
  {
    name: 'create: unknown extra fields are kept',
    call: 'write',
    answer: json(201, { ...INCIDENT, escalation_policy: 'night-shift' }),
    expect: { ok: true, value: { id: 'inc_0001', holds: ['night-shift'] } },
  },
  { name: 'create: 200 HTML page', call: 'write', answer: html(200, LOGIN_PAGE), expect: createdWithoutId(['Sign in to Pagerly']) },
  {
    name: 'create: 201 a huge JSON answer: its id read, the answer passed on cut short',
    call: 'write',
    answer: json(201, { id: 'INC-7', log: 'x'.repeat(1_000_000) }),
    expect: { ok: true, value: { id: 'INC-7', holds: ['log', 'xxxxxxxx'], shorterThan: 5_000, lacks: [NO_ID_NOTE] } },
  },
  {
    name: 'create: 201 a huge text body is passed on cut short',
    call: 'write',
    answer: { status: 201, type: 'text/plain', body: `created ${'x'.repeat(1_000_000)}` },
    expect: { ok: true, value: { id: '', holds: ['created xxx'], shorterThan: 5_000 } },
  },
  // An id is only what a next step can use (shared/operations/created-id.ts `usableId`): not the
  // key in any form, no control or bidi character, at most 256 characters, not a number
  // JSON.parse rounded. Make's IML writes the same checks (make-app/generator/write-answer-iml.ts)
  // but finds the key only as it is or URL-encoded, by its first or last 8 characters: it has no
  // base64, hex or form encoding of a part of a text (known-failures.ts).
  { name: 'create: 201 an id that is the key', call: 'write', answer: json(201, { id: CONFORMANCE_KEY }), expect: createdWithoutId() },
  {
    name: 'create: 201 an id holding the start of the key',
    call: 'write',
    answer: json(201, { id: `ref-${CONFORMANCE_KEY.slice(0, 10)}` }),
    expect: createdWithoutId(),
  },
  {
    name: 'create: 201 the key as the Location id',
    call: 'write',
    answer: { status: 201, body: '', headers: { location: `/o/incident/${encodeURIComponent(CONFORMANCE_KEY)}` } },
    expect: createdWithoutId(),
  },
  { name: 'create: 201 an id that is the key in base64', call: 'write', answer: json(201, { id: btoa(CONFORMANCE_KEY) }), expect: createdWithoutId() },
  { name: 'create: 201 an id with a line break inside', call: 'write', answer: json(201, { id: 'INC-7\n::error::forged' }), expect: createdWithoutId() },
  { name: 'create: 201 an id with ESC', call: 'write', answer: json(201, { id: 'INC-7\u001b[2J' }), expect: createdWithoutId() },
  { name: 'create: 201 an id with a bidi override', call: 'write', answer: json(201, { id: 'INC-\u202e7' }), expect: createdWithoutId() },
  {
    name: 'create: 201 the Location id with an encoded line break',
    call: 'write',
    answer: { status: 201, body: '', headers: { location: '/o/incident/INC-7%0Aforged' } },
    expect: createdWithoutId(),
  },
  {
    name: 'create: 201 an id of 256 characters',
    call: 'write',
    answer: json(201, { id: 'I'.repeat(256) }),
    expect: { ok: true, value: { id: 'I'.repeat(256), lacks: [NO_ID_NOTE] } },
  },
  { name: 'create: 201 an id of 257 characters', call: 'write', answer: json(201, { id: 'I'.repeat(257) }), expect: createdWithoutId() },
  {
    name: 'create: 201 an id number JSON.parse rounds',
    call: 'write',
    answer: { status: 201, type: JSON_TYPE, body: '{"id":12345678901234567891}' },
    expect: createdWithoutId(),
  },
  {
    name: 'create: 201 an id number at 2^53 - 1, exact',
    call: 'write',
    answer: { status: 201, type: JSON_TYPE, body: '{"id":9007199254740991}' },
    expect: { ok: true, value: { id: '9007199254740991', lacks: [NO_ID_NOTE] } },
  },
  {
    name: 'create: 201 an id number at exactly 2^53, which 2^53 + 1 also parses to',
    call: 'write',
    answer: { status: 201, type: JSON_TYPE, body: '{"id":9007199254740992}' },
    expect: createdWithoutId(),
  },
  {
    name: 'create: 400 input refused',
    call: 'write',
    answer: said(400, 'severity must be P1 to P5'),
    expect: { ok: false, kind: 'invalid_input', says: ['severity must be P1 to P5'] },
  },
  {
    name: 'create: 502 HTML page',
    call: 'write',
    answer: html(502, BAD_GATEWAY_PAGE),
    expect: { ok: false, kind: 'server', says: ['502'], saysNot: ['END-OF-PAGE'] },
  },

  // A directory entry: a record whose shape the reference does not show.
  {
    name: 'directory: 200 the entry',
    call: 'directoryEntry',
    answer: json(200, ENTRY),
    expect: { ok: true, value: { holds: ['grace@example.com', '+14155550123'] } },
  },
  // The one address rule (shared/schemas/email-address.ts): every address a mail system takes
  // reaches the service, encoded in the query; what cannot be an address is refused, unsent.
  ...['x&y@acme.example', 'zoë@exämple.de', 'a+b%25c#d=e?f@acme.example'].map(
    (address): Row => ({
      name: `directory: the address ${address} is taken and sent encoded`,
      call: 'directoryEntry',
      email: address,
      answer: json(200, { ...ENTRY, email: address }),
      sends: { email: address },
      expect: { ok: true, value: { holds: [address] } },
    }),
  ),
  // A bidi override makes the address show as another (`a\u202Egro@` reads `aorg@`).
  ...['no-at-sign', 'a b@c.d', 'a\u202Egro@acme.example'].map(
    (address): Row => ({
      name: `directory: "${address.replace('\u202E', '\\u202E')}" is refused before anything is sent`,
      call: 'directoryEntry',
      email: address,
      answer: json(200, ENTRY),
      sends: 'nothing',
      expect: { ok: false, kind: 'invalid_input', says: ['must be an e-mail address'] },
      on: {
        Make: {
          expect: { ok: false, kind: 'invalid_input', says: ["'email'", 'does not match'] },
          why: "Make checks the parameter's validate.pattern (the same rule) before the module runs, and words the refusal itself",
        },
      },
    }),
  ),
  {
    name: 'directory: unknown extra fields are kept',
    call: 'directoryEntry',
    answer: json(200, { ...ENTRY, pronouns: 'she/her' }),
    expect: { ok: true, value: { holds: ['grace@example.com', 'she/her'] } },
  },
  { name: 'directory: 200 {}', call: 'directoryEntry', answer: json(200, {}), expect: { ok: true, value: { nothing: true } } },
  { name: 'directory: 200 with an empty body', call: 'directoryEntry', answer: empty(200, JSON_TYPE), expect: { ok: true, value: { nothing: true } } },
  {
    name: 'directory: 200 []',
    call: 'directoryEntry',
    answer: json(200, []),
    expect: { ok: true, value: { nothing: true } },
    on: {
      Make: {
        expect: { ok: false, kind: 'invalid_response', says: ['shape'] },
        why: "a Make module's output is the entry's fields spread into one bundle (get-directory-entry's `{{...}}: body`), and a list has no fields to spread: Make stops the module with a DataError on the answer's shape rather than output an empty bundle",
      },
    },
  },
  {
    name: 'directory: 200 HTML page',
    call: 'directoryEntry',
    answer: html(200, LOGIN_PAGE),
    expect: { ok: false, kind: 'invalid_response', says: ['not JSON'] },
  },
  {
    name: 'directory: 404 no entry',
    call: 'directoryEntry',
    answer: said(404, 'No directory entry for that e-mail'),
    expect: { ok: false, kind: 'not_found', says: ['No directory entry'] },
    on: {
      Zapier: searchFindsNothing,
      n8n: searchFindsNothing,
      MCP: {
        expect: searchFindsNothing.expect,
        why: 'a lookup that finds nobody is an empty list for the model (`{"directory_entries": []}`), not a failed call: the shared search takes 404 for no entry (notFoundIsEmpty)',
      },
    },
  },

  // A certificate the client cannot verify: configuration, never retried, nothing sent.
  {
    name: 'teams: a self-signed TLS certificate',
    call: 'read',
    answer: { ...json(200, [TEAM]), tls: 'self-signed' },
    expect: certificateRefused,
    on: { Make: makeOwnTls },
  },
  {
    name: 'create: a self-signed TLS certificate',
    call: 'write',
    answer: { ...json(201, INCIDENT), tls: 'self-signed' },
    expect: { ...certificateRefused, saysNot: [...certificateRefused.saysNot, 'had been sent', 'may have been done'] },
    on: { Make: makeOwnTls },
  },
  // A 407 that comes back as an answer: from a proxy that intercepts, or from a forwarding proxy
  // that Zapier's z.request or n8n's httpRequest go through (they keep their platforms' own proxy
  // handling). Node's fetch turns a 407 into a network error (the Fetch standard), Bun's and
  // Deno's give it back as an answer: our transport on fetch reads both as the refusal it is, a ProxyError, never
  // "could not reach" (a proxy named in HTTPS_PROXY/HTTP_PROXY that refuses: test/shared/proxy-refusal.test.ts).
  {
    name: 'teams: 407 Proxy Authentication Required, as an answer',
    call: 'read',
    answer: { status: 407, type: 'text/html', body: '<h1>Proxy Authentication Required</h1>', headers: { 'proxy-authenticate': 'Basic realm="corp"' } },
    expect: { ok: false, kind: 'proxy', says: ['407 Proxy Authentication Required', 'nothing reached the service', 'HTTPS_PROXY'] },
    on: {
      'typed client': {
        expect: { ok: false, kind: 'invalid_response', says: ['407'] },
        why: 'the checkout-only client on got hands a 407 back as an answer (got reads no proxy variables), and an HTML body is an invalid answer naming its status',
      },
      Zapier: {
        expect: { ok: false, kind: 'invalid_response', says: ['407'] },
        why: "z.request (node-fetch) hands a 407 back as an answer, and an HTML body is an invalid answer naming its status; proxies are Zapier's egress, not the app's",
      },
      n8n: {
        expect: { ok: false, kind: 'network' },
        why: "n8n applies its own proxy settings; this driver's stand-in of n8n's httpRequest is fetch, which hides a 407 as a network error, where n8n's own (axios) returns the answer",
      },
      Make: {
        expect: { ok: false, kind: 'network' },
        why: "the runner models Make on fetch, which hides a 407 as a network error; Make itself takes every 4xx as an error of the module, and its proxies are Make's own",
      },
    },
  },
  // Changing a directory entry: an action's write, done on any 2xx whatever the body (assumption `created-id`).
  {
    name: 'directory write: 200 the entry',
    call: 'directoryWrite',
    answer: json(200, ENTRY),
    expect: { ok: true, value: { holds: ['grace@example.com', '+14155550123'] } },
  },
  { name: 'directory write: 204 without a body', call: 'directoryWrite', answer: empty(204), expect: { ok: true } },
  {
    name: 'directory write: 200 HTML page is done, the page passed on',
    call: 'directoryWrite',
    answer: html(200, LOGIN_PAGE),
    expect: { ok: true, value: { holds: ['Sign in to Pagerly'] } },
  },
  {
    name: 'directory write: 200 a list',
    call: 'directoryWrite',
    answer: json(200, [ENTRY]),
    expect: { ok: true, value: { holds: ['grace@example.com'] } },
  },
  {
    name: 'directory write: 400 input refused',
    call: 'directoryWrite',
    answer: said(400, 'phone must be in E.164'),
    expect: { ok: false, kind: 'invalid_input', says: ['phone must be in E.164'] },
  },

  // Removing a hook (the instant triggers of Zapier and Make).
  { name: 'unsubscribe: 200 removed', call: 'unsubscribe', answer: json(200, { id: 'sub_0451', removed: true }), expect: { ok: true } },
  { name: 'unsubscribe: 204', call: 'unsubscribe', answer: empty(204), expect: { ok: true } },
  ...[404, 405, 410].map(
    (status): Row => ({
      name: `unsubscribe: ${status} is a hook already gone`,
      call: 'unsubscribe',
      answer: said(status, 'gone'),
      expect: { ok: true },
      on: { Make: makeAlreadyGone(status) },
    }),
  ),
  {
    name: 'unsubscribe: 403 is reported',
    call: 'unsubscribe',
    answer: said(403, 'Not your hook'),
    expect: { ok: false, kind: 'permission', says: ['Not your hook'] },
  },
  {
    name: 'unsubscribe: 500 is reported',
    call: 'unsubscribe',
    answer: said(500, 'Database unavailable'),
    expect: { ok: false, kind: 'server', says: ['500'] },
  },
];
