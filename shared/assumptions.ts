import { PHONE_SEPARATORS_TEXT } from './schemas/primitives.ts';

/**
 * Every choice this project makes where the API spec (../shared/spec/automation-api.md)
 * says "not shown". Each is made once, here; the catalog, the sandbox and both apps refer
 * to these ids, and the README's "What the API spec leaves open" table is written from
 * this list (`npm run docs`; a test fails when the README drifts from it).
 */
export interface Assumption {
  readonly id: string;
  readonly topic: string;
  readonly choice: string;
  readonly why: string;
}

export const assumptions = [
  {
    id: 'bases',
    topic: 'Base addresses',
    choice:
      'API base `https://api.pagerly.io`; rotations base = API base + `/pagerly` (used for `allteams` and `currentusers`). Both are settings; the sandbox serves every path under both.',
    why: 'The public docs show both; keeping them separate settings lets a user point either at a proxy or the sandbox.',
  },
  {
    id: 'error-shape',
    topic: 'Errors other than the invalid key',
    choice:
      'Same body shape as the documented one, `[{"Error":"..."}]`, with the HTTP status saying what kind: 400 invalid input, 403 not allowed (org admin only, or the owner), 404 not found, 429 rate limited (with `Retry-After` in seconds), 5xx service fault.',
    why: 'Reusing the one documented shape is the least surprising choice; statuses are what every HTTP client and all three platforms already classify.',
  },
  {
    id: 'auth-error',
    topic: 'Recognising an invalid key',
    choice:
      'A 401, or a 400 whose error text mentions the API key (the documented `API Key is not valid`), is an authentication error; any other 400 is invalid input.',
    why: 'The documented invalid-key answer is a 400, which otherwise means bad input; the text is the only thing that tells them apart.',
  },
  {
    id: 'incident-fields',
    topic: 'Incident fields, create versus update',
    choice:
      '`title` is required; `severity` is optional (the service applies its default, `P3` in the sandbox); optional `description`, `teamname` (route to a team) and `status` (`triggered`, `acknowledged`, `resolved`). With an `id` the call updates that incident (404 if there is none): the fields given replace the stored ones, the others are kept. Without an `id` it creates a new incident.',
    why: "Peers (PagerDuty's dedup key, Opsgenie's alias) address updates by an id the caller keeps; title is the one field every incident needs.",
  },
  {
    id: 'incident-response',
    topic: 'Incident response',
    choice: '`201` with the incident on create, `200` on update: `{id, title, severity, status, description, teamname, created_at, updated_at}`.',
    why: 'A pipeline needs the id back to update or resolve the incident later.',
  },
  {
    id: 'created-id',
    topic: "A create answered 2xx: the status is the service's word",
    choice:
      "Any 2xx to a create, or to any other write an action makes (the directory's), means it was done, whatever the body. The id is read where the service put it, first found: `id`, `<noun>_id`, `<noun>Id` at the top level; the same in one wrapping object (`data`, `result` or `<noun>`); the same in the first element of a list; the last path segment of `Location` (percent-decoded). With none (or a body that is not JSON, or cut off), the create still succeeds: `id` is empty, the answer is passed on as it came (a JSON object's fields, anything else under `answer`, as text cut to 2,000 characters when it could not be read or is over 100,000 characters), and `note` says the service gave no readable id (empty when one came). An update keeps the id it named. Hook subscriptions keep their stricter reading: a platform stores the id they answer. A connection that breaks before the body ends is no whole answer: it stays \"may have been done\" on every surface (never retried blindly): got, under the typed client, keeps no part of a body it could not finish, and Make's engine reports it as a lost connection.",
    why: 'The spec shows no success body for `POST /o/incident` (§4.1). Calling a done create a failure makes users and Zapier\'s Autoreplay send it again (two incidents) and skips the steps after it; "may have been done" stays for requests that got no status at all.',
  },
  {
    id: 'severity-values',
    topic: 'Severity values',
    choice: '`P1` to `P5` are offered as choices; any other non-empty label of up to 32 characters is sent as given.',
    why: 'The spec shows `P<digit>` only as an example; refusing other labels could break an organization that uses its own.',
  },
  {
    id: 'currentusers-all-teams',
    topic: 'Everyone on call (`currentusers` without `teamname`)',
    choice:
      'The connectors never send `currentusers` without `teamname`. Everyone on call is the team list (`allteams`), then `currentusers?teamname=` for each team, four at a time; each result is one person on call in one team, with that team and a summary of that team only (someone on call in two teams is one result in each, and once in each summary); the answer for a team is taken to list each person once, as the sandbox does (a person on two layers of one team is on call once). A team that cannot be read fails the search, naming it (the CLI prints the others and exits with its failure). The order `allteams` lists the teams in is not taken to hold from one call to the next, and a team is taken to keep its id when renamed: a read that can be continued later (the cursor of the MCP tool) goes through the teams in order of id. Make asks one team per module run. The sandbox still answers without `teamname`, as the overview suggests.',
    why: "The detailed reference marks `teamname` required; only the overview's wording hints at every team. A list that silently lacks a team's people would page nobody of that team.",
  },
  {
    id: 'unknown-team',
    topic: 'A team name that names no team',
    choice:
      '404 `[{"Error":"No team named ..."}]`. Names match exactly after trimming, ignoring letter case. Where the connectors read the team list first, their own error names at most 10 teams with a close name (starting with or holding what was typed, or a few typos away), never the whole list.',
    why: 'An empty list would read as "nobody is on call" and hide a renamed team at 3 a.m.; an error says what to fix.',
  },
  {
    id: 'directory-entry',
    topic: 'Directory entry fields',
    choice:
      '`{id, email, name, phone, role, imageurl}`, one per e-mail within an organization (e-mails compare ignoring letter case; the same e-mail may exist in two organizations); `phone` in international format (E.164, e.g. `+14155550123`) or null; `role` one of `owner`, `admin`, `user` (other roles the service may have are passed on as they come).',
    why: 'The spec names e-mail, phone and role; name and image come from the on-call user shape.',
  },
  {
    id: 'email-address',
    topic: 'Which e-mail addresses are taken',
    choice:
      "Every address a mail system takes: RFC 5322 dot-atom local parts (`x&y@`, `o'brien@`, `a+b@`, `/ = ! # $ % * ? ^ { | } ~`), quoted local parts, non-ASCII local parts and internationalised domains (RFC 6531), address literals. Refused before anything is sent: no `@`, an empty local part, domain or label, white space, control characters, bidi controls and the zero-width space (they make an address show as another), U+FFFD, more than 254 characters. One rule on every surface (`shared/schemas/email-address.ts`); sent as typed, encoded in the query.",
    why: "The spec does not say which addresses the service takes; the service is the judge of any address that can exist, and a connector that refuses a real colleague's address leaves no way round it.",
  },
  {
    id: 'directory-upsert',
    topic: 'Create or replace a directory entry',
    choice:
      'Body `{email, name, phone?, role?}`; `201` when created, `200` when replaced, with the entry. Replacing sets name and phone (an omitted phone clears it); an omitted role keeps the current one (`user` for a new entry).',
    why: 'Demoting an admin because a sync file left the role column out would be a nasty surprise; roles have their own endpoint.',
  },
  {
    id: 'directory-create-update',
    topic: 'Create and update of a directory entry (one "create or replace" endpoint)',
    choice:
      'Create Directory Entry sends what it is given to `POST /o/oncalluser` (an entry with that e-mail is replaced). Update Directory Entry reads the entry first (`GET /o/oncalluser?email=`, 404 when there is none) and sends it back with the fields the user filled in, so an empty field keeps its value. Find or Create Directory Entry (Zapier) finds by e-mail and creates only when nothing is found.',
    why: "Zapier asks for update actions separate from create actions, and Make's Multiple Requests page asks an app to keep what a full-update endpoint would clear; an update that cleared a phone number because a field was left empty would page nobody.",
  },
  {
    id: 'phone-format',
    topic: 'Phone numbers',
    choice: `Sent in E.164. The connectors accept ${PHONE_SEPARATORS_TEXT.toLowerCase()} and remove them before sending; anything else is refused with an example of the right form.`,
    why: 'Every paging and SMS provider dials E.164; people type numbers with separators.',
  },
  {
    id: 'roles',
    topic: 'Roles',
    choice:
      "`admin` and `user` can be set; `owner` cannot be given, and the owner's entry cannot be replaced, re-roled or removed through the API (403); the owner's phone can be updated like anyone's.",
    why: 'The spec says roles exist and that admins may change them; ownership transfer is a dashboard action at every peer.',
  },
  {
    id: 'directory-phone-role-bodies',
    topic: 'Phone and role update bodies',
    choice:
      '`POST /o/oncalluser/phone` takes `{email, phone}`, `POST /o/oncalluser/role` takes `{email, role}`; both answer `200` with the updated entry, 404 when there is no entry.',
    why: 'The entry is keyed by e-mail everywhere else in the spec.',
  },
  {
    id: 'directory-remove',
    topic: 'Removing a directory entry',
    choice:
      '`200 {"email": ..., "removed": true}`; 404 when there is no such entry. A removed person leaves every rotation (the others share its shifts from then on) and their API keys stop working.',
    why: 'A key acts as its creator; a key of someone who left must not go on working.',
  },
  {
    id: 'apikey-check',
    topic: '`GET /o/test/apikey` response',
    choice:
      '`200 {"valid": true, "user": {id, name, email, role}, "organization": {id, name}}`; the connectors read it leniently and only use it for a connection label.',
    why: 'A connection label should say whose key it is without ever showing the key.',
  },
  {
    id: 'dashboard',
    topic: 'Where API keys are generated',
    choice:
      "The dashboard, whose API keys menu is where an org admin generates a key, is reached from `https://pagerly.io`; the Zapier and Make connection forms link there (n8n's credential names the dashboard in its help, as plain text).",
    why: "The spec names the dashboard and its menu item for API keys but gives no address; the API is served from the same domain (`api.pagerly.io`), and a key field should link to where the key is found (Zapier D002, Make's parameter hints).",
  },
  {
    id: 'subscribe',
    topic: 'Subscribing a hook',
    choice:
      'Body `{url, teamname?}` (no team: changes of every team); `201 {id, url, teamname, platform, created_at}`. The URL must be http or https; an unknown team is a 404.',
    why: 'REST hooks at Zapier and Make need a target URL and give back an id to remove it by.',
  },
  {
    id: 'unsubscribe',
    topic: 'Removing a hook',
    choice:
      'Not documented, so only a fast path: `DELETE /o/zapier/subscribe/{id}` and `DELETE /o/make/subscribe/{id}`, `200 {"id": ..., "removed": true}` in the sandbox. 404, 405 and 410 mean the hook is already gone (or cannot be removed this way) and count as success on Zapier; Make cannot take a 4xx for success, so its detach says in one sentence that nothing is left to remove. Other failures are reported. The safety net is Zapier\'s and Make\'s own rule: a hook URL that answers 410 is removed by the sender.',
    why: 'Removal by the id the subscribe call returned is what the unsubscribe steps of Zapier and Make expect; a service without that path must not leave a Zap or scenario unable to turn off.',
  },
  {
    id: 'n8n-polls',
    topic: 'On-call changes in n8n',
    choice:
      "The n8n trigger polls instead of subscribing: each poll calls `GET /o/zapier/allteams`, then `GET /o/currentusers?teamname=…` for each watched team (1 + teams requests), and compares with the last poll, kept in the workflow's static data. One item per person going on or off call; the first poll after activation emits nothing.",
    why: 'The spec documents subscribe paths for Zapier and Make only and none for n8n, so an n8n hook trigger could not be activated on the real service; both reads are documented, and `teamname` is required on `currentusers`.',
  },
  {
    id: 'hook-payload',
    topic: 'On-call change event (hook payload)',
    choice:
      '`POST` to the hook URL with `{id, type: "oncall.changed", occurred_at, team: {id, name}, previous: [user], current: [user]}` (users as `currentusers` returns them); header `X-Pagerly-Event-Id` repeats the id.',
    why: 'Consumers need the team, who was and who is on call, and a stable id to de-duplicate retries.',
  },
  {
    id: 'hook-delivery',
    topic: 'Hook delivery',
    choice: 'At least once: a failed or timed-out delivery is retried with backoff under the same event id; a `410 Gone` answer removes the subscription.',
    why: 'The REST-hook convention Zapier and Make follow.',
  },
  {
    id: 'limits',
    topic: 'Rate limits, pagination, time-outs',
    choice:
      'Rate limits answer 429 with `Retry-After` (seconds). Lists are returned whole (no pagination). The typed client times out after 15 s and retries only what cannot be done twice: reads, deletes and replaces, a 429 or 503 (the service did not act on it), a request refused before it left. A JSON answer nested deeper than 100 levels is an invalid answer.',
    why: 'The spec shows no limits; these are what clients of peers have to handle anyway.',
  },
  {
    id: 'lenient-responses',
    topic: 'Shapes of undocumented responses',
    choice:
      'Unknown fields are kept everywhere. A documented list (`allteams`, `currentusers`) that is not a list is an error; a response whose shape the spec does not show is passed on as it came if it does not fit the assumed shape; an empty success body reads as `{}`.',
    why: 'A shape we guessed wrong must never crash an operation or drop data.',
  },
] as const satisfies readonly Assumption[];

export type AssumptionId = (typeof assumptions)[number]['id'];
