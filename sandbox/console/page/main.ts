// The console page: plain DOM, every text from the sandbox put on screen by text.ts (as text,
// its invisible controls shown, shortened past what the API allows), no inline script, no
// eval, no framework. The live feed comes through the worker all console tabs share.
import type {
  AssumptionRow,
  ClockRow,
  DeliveryRow,
  FaultRow,
  FeedEventName,
  FeedEvents,
  IncidentRow,
  JournalRow,
  ListPage,
  OnCallChangeRow,
  PersonName,
  PersonRow,
  SubscriptionRow,
  TeamRow,
} from '../messages.ts';
import { byId, el, fillTable, long, row, short } from './dom.ts';
import { connectFeed } from './feed-connection.ts';
import type { FeedMessage, FeedState } from './feed-stream.ts';
import { SHOWN, asLine, putText } from './text.ts';
import { errorText } from '../../../shared/schemas/error-body.ts';

const PAGE_SIZE = 25;
/** Incidents arrive one by one and are watched as they come: a longer page keeps a burst on screen. */
const INCIDENT_PAGE = 50;
const KEPT_INCIDENTS = 2_000;
const KEPT_DELIVERIES = 500;
const KEPT_JOURNAL = 1_000;
const SHOWN_CHANGES = 30;
const SHOWN_DELIVERIES = 50;
const SHOWN_JOURNAL = 100;
const HOUR_MS = 3_600_000;
/** A time as the page shows it, `2026-11-02 09:00:00Z`. */
const TIME = 40;

const time = (iso: string | null) => (iso === null ? null : iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z'));

/** A cell of names (who is on call), each shortened on its own and reachable whole. */
function namesCell(people: readonly PersonName[]): HTMLTableCellElement {
  const td = el('td', undefined, 'long');
  if (people.length === 0) td.textContent = 'nobody';
  people.forEach((person, index) => {
    if (index > 0) td.append(', ');
    const name = el('span');
    putText(name, person.name, SHOWN.personName);
    td.append(name);
  });
  return td;
}

/** Renders once a frame at most, whatever number of events a batch brought. */
const dirty = new Set<() => void>();
function later(render: () => void): void {
  if (dirty.size === 0)
    requestAnimationFrame(() => {
      const renders = [...dirty];
      dirty.clear();
      for (const each of renders) each();
    });
  dirty.add(render);
}

// The clock: a real one keeps moving between events, so the page moves it too.

let clock: ClockRow & { receivedAt: number } = { now: '', mode: 'fixed', receivedAt: 0 };
function setClock(next: ClockRow): void {
  clock = { ...next, receivedAt: Date.now() };
  renderClock();
}
function renderClock(): void {
  if (!clock.now) return;
  const at = new Date(Date.parse(clock.now) + (clock.mode === 'real' ? Date.now() - clock.receivedAt : 0));
  const shown = byId('clock-now');
  shown.textContent = time(at.toISOString());
  shown.setAttribute('datetime', at.toISOString());
  byId('clock-mode').textContent = clock.mode;
}
setInterval(renderClock, 1_000);

// Incidents: newest change first, a page at a time.

let incidents: IncidentRow[] = [];
let incidentOffset = 0;
function putIncident(incident: IncidentRow): void {
  incidents = [incident, ...incidents.filter((other) => other.id !== incident.id)].slice(0, KEPT_INCIDENTS);
  later(renderIncidents);
}
const statusClass = (status: string) => (status === 'resolved' ? 'good' : status === 'triggered' ? 'bad' : undefined);
function renderIncidents(): void {
  incidentOffset = Math.min(incidentOffset, Math.max(0, incidents.length - 1 - ((incidents.length - 1) % INCIDENT_PAGE)));
  const page = incidents.slice(incidentOffset, incidentOffset + INCIDENT_PAGE);
  fillTable(
    'incidents-rows',
    page.map((incident) =>
      row(
        [
          short(incident.id, SHOWN.incidentId),
          long(incident.title, SHOWN.title),
          short(incident.severity, SHOWN.severity),
          short(incident.status, SHOWN.word, statusClass(incident.status)),
          long(incident.teamname, SHOWN.teamName),
          long(incident.org, SHOWN.orgName),
          short(incident.change, SHOWN.word),
          long(incident.by, SHOWN.personName),
          short(time(incident.updated_at), TIME),
        ],
        incident.id,
      ),
    ),
    'No incidents yet: create one through the API.',
    9,
  );
  byId('incidents-range').textContent = incidents.length === 0 ? '' : `${incidentOffset + 1}–${incidentOffset + page.length} of the ${incidents.length} latest`;
  byId<HTMLButtonElement>('incidents-prev').disabled = incidentOffset === 0;
  byId<HTMLButtonElement>('incidents-next').disabled = incidentOffset + INCIDENT_PAGE >= incidents.length;
}

// Teams and the directory: long lists (20,000 teams), read from the sandbox a page at a time.

interface Paged<Row> {
  offset: number;
  query: string;
  page: ListPage<Row> | undefined;
}
const teams: Paged<TeamRow> = { offset: 0, query: '', page: undefined };
const people: Paged<PersonRow> = { offset: 0, query: '', page: undefined };

async function readPage<Row>(path: string, list: Paged<Row>, render: () => void): Promise<void> {
  const params = new URLSearchParams({ offset: String(list.offset), limit: String(PAGE_SIZE), q: list.query });
  const answer = await fetch(`${path}?${params}`, { headers: { accept: 'application/json' } });
  if (!answer.ok) return;
  list.page = (await answer.json()) as ListPage<Row>;
  render();
}
const readTeams = () => readPage('/_sandbox/console/teams', teams, renderTeams);
const readPeople = () => readPage('/_sandbox/console/people', people, renderPeople);

function rangeText(page: ListPage<unknown> | undefined, noun: string): string {
  if (!page) return '';
  if (page.total === 0) return `No ${noun}`;
  return `${page.offset + 1}–${page.offset + page.items.length} of ${page.total} ${noun}`;
}

function renderTeams(): void {
  const page = teams.page;
  fillTable(
    'teams-rows',
    (page?.items ?? []).map((team) => row([long(team.name, SHOWN.teamName), long(team.org, SHOWN.orgName), namesCell(team.onCall)], team.id)),
    'No team matches.',
    3,
  );
  byId('teams-range').textContent = rangeText(page, 'teams');
  byId<HTMLButtonElement>('teams-prev').disabled = teams.offset === 0;
  byId<HTMLButtonElement>('teams-next').disabled = !page || teams.offset + PAGE_SIZE >= page.total;
}

function renderPeople(): void {
  const page = people.page;
  fillTable(
    'people-rows',
    (page?.items ?? []).map((person) =>
      row([long(person.name, SHOWN.personName), long(person.email, SHOWN.email), short(person.role, SHOWN.word), long(person.org, SHOWN.orgName)], person.id),
    ),
    'Nobody matches.',
    4,
  );
  byId('people-range').textContent = rangeText(page, 'people');
  byId<HTMLButtonElement>('people-prev').disabled = people.offset === 0;
  byId<HTMLButtonElement>('people-next').disabled = !page || people.offset + PAGE_SIZE >= page.total;
}

/** Someone changed in the directory: shown at once if on screen, and the page read again (its count may have moved). */
let peopleTimer: number | undefined;
function personChanged(person: PersonRow): void {
  const items = people.page?.items;
  if (people.page && items?.some((shown) => shown.id === person.id)) {
    people.page = {
      ...people.page,
      items: person.removed ? items.filter((shown) => shown.id !== person.id) : items.map((shown) => (shown.id === person.id ? person : shown)),
    };
    later(renderPeople);
  }
  clearTimeout(peopleTimer);
  peopleTimer = window.setTimeout(() => void readPeople(), 300);
}

// On-call changes: the team's row on screen follows at once, and the change is listed.

let changes: OnCallChangeRow[] = [];
function onCallChanged(change: OnCallChangeRow): void {
  changes = [change, ...changes].slice(0, SHOWN_CHANGES);
  const page = teams.page;
  if (page?.items.some((team) => team.id === change.team.id)) {
    teams.page = { ...page, items: page.items.map((team) => (team.id === change.team.id ? { ...team, onCall: change.current } : team)) };
    later(renderTeams);
  }
  later(renderChanges);
}
function renderChanges(): void {
  fillTable(
    'changes-rows',
    changes.map((change) =>
      row(
        [
          short(time(change.at), TIME),
          long(change.team.name, SHOWN.teamName),
          namesCell(change.previous),
          namesCell(change.current),
          short(change.hooks === 1 ? '1 hook' : `${change.hooks} hooks`, TIME),
          short(change.eventId, SHOWN.incidentId),
        ],
        change.eventId,
      ),
    ),
    'No on-call change since the console started: move the clock past a handover.',
    6,
  );
}

// Hooks: each subscription's latest state, and every delivery attempt.

const subscriptions = new Map<string, SubscriptionRow>();
let deliveries: DeliveryRow[] = [];
const STATE_TEXT: Record<SubscriptionRow['state'], string> = {
  active: 'active',
  unsubscribed: 'unsubscribed',
  'removed-410': 'removed (the hook answered 410 Gone)',
};
function renderSubscriptions(): void {
  const rows = [...subscriptions.values()].reverse();
  fillTable(
    'subscriptions-rows',
    rows.map((s) =>
      row(
        [
          short(s.id, SHOWN.subscriptionId),
          short(s.platform, SHOWN.word),
          long(s.team ?? 'every team', SHOWN.teamName),
          long(s.url, SHOWN.path),
          short(STATE_TEXT[s.state], TIME, s.state === 'active' ? 'good' : 'bad'),
          long(s.org, SHOWN.orgName),
        ],
        s.id,
      ),
    ),
    'No hook is subscribed.',
    6,
  );
}
const NEXT_TEXT: Record<DeliveryRow['next'], string> = {
  done: 'delivered',
  removed: 'subscription removed (410)',
  failed: 'given up after the last retry',
  retry: 'retry at ',
};
function renderDeliveries(): void {
  fillTable(
    'deliveries-rows',
    deliveries
      .slice(0, SHOWN_DELIVERIES)
      .map((d) =>
        row([
          short(time(d.at), TIME),
          short(d.eventId, SHOWN.incidentId),
          long(`${d.subscriptionId} → ${d.url}`, SHOWN.subscriptionId + SHOWN.path),
          short(d.attempt === 1 ? '1 (first try)' : `${d.attempt} (retry ${d.attempt - 1})`, TIME),
          short(d.outcome, SHOWN.word, d.outcome === 'delivered' ? 'good' : 'bad'),
          short(d.status, SHOWN.word),
          short(d.next === 'retry' ? `${NEXT_TEXT.retry}${time(d.nextAttemptAt)}` : NEXT_TEXT[d.next], SHOWN.word + TIME),
        ]),
      ),
    'No delivery attempt yet.',
    7,
  );
}

// The request journal: bounded, filtered here. An answer an injected fault gave is marked so.

let journal: JournalRow[] = [];
const INJECTED = 'injected fault';
function statusCell(entry: JournalRow): HTMLTableCellElement {
  const td = short(entry.status, SHOWN.word, entry.status >= 400 ? 'bad' : undefined);
  if (entry.injected) {
    const mark = el('span', '⚡ injected', 'injected');
    mark.setAttribute('role', 'img');
    mark.setAttribute('aria-label', INJECTED);
    mark.title = 'An injected fault (POST /_sandbox/faults) gave this answer, not the sandbox’s model of the service';
    td.append(' ', mark);
  }
  return td;
}
function renderJournal(): void {
  const query = byId<HTMLInputElement>('journal-q').value.trim().toLowerCase();
  const status = byId<HTMLSelectElement>('journal-status').value;
  const matching = journal.filter(
    (entry) =>
      (status === '' || (status === 'injected' ? entry.injected : String(entry.status).startsWith(status))) &&
      (query === '' || `${entry.method} ${entry.path} ${entry.who ?? ''} ${entry.status}${entry.injected ? ` ${INJECTED}` : ''}`.toLowerCase().includes(query)),
  );
  fillTable(
    'journal-rows',
    matching
      .slice(0, SHOWN_JOURNAL)
      .map((entry) =>
        row(
          [
            short(time(entry.at), TIME),
            short(entry.method, SHOWN.word),
            long(entry.path, SHOWN.path),
            statusCell(entry),
            short(entry.ms, SHOWN.word),
            long(entry.who ?? 'no key', SHOWN.personName + SHOWN.orgName + 3),
          ],
          String(entry.seq),
        ),
      ),
    journal.length === 0 ? 'No request yet.' : 'No request matches the filter.',
    6,
  );
  byId('journal-range').textContent = `${Math.min(matching.length, SHOWN_JOURNAL)} shown of ${matching.length} matching (${journal.length} kept)`;
}

// Faults waiting for their requests, as GET /_sandbox/faults lists them.

let faults: readonly FaultRow[] = [];
function renderFaults(): void {
  const list = byId('faults-pending');
  if (faults.length === 0) {
    list.replaceChildren(el('li', 'No fault is waiting.', 'empty'));
    return;
  }
  list.replaceChildren(
    ...faults.map((fault) => {
      const item = el('li');
      const what = el('span');
      putText(what, `${fault.method ?? 'any method'} ${fault.path}`, SHOWN.path);
      item.append(what, ` → ${fault.status}, ${fault.remaining === 1 ? 'for the next request' : `for the next ${fault.remaining} requests`}`);
      return item;
    }),
  );
}

// The live feed.

const handlers: { [N in FeedEventName]: (data: FeedEvents[N]) => void } = {
  snapshot(snapshot) {
    setClock(snapshot.clock);
    incidents = [...snapshot.incidents].reverse();
    changes = [...snapshot.onCallChanges].reverse().slice(0, SHOWN_CHANGES);
    subscriptions.clear();
    for (const s of snapshot.subscriptions) subscriptions.set(s.id, s);
    deliveries = [...snapshot.deliveries].reverse();
    journal = [...snapshot.journal].reverse();
    faults = snapshot.faults;
    for (const render of [renderIncidents, renderChanges, renderSubscriptions, renderDeliveries, renderJournal, renderFaults]) later(render);
    void readTeams();
    void readPeople();
  },
  clock: setClock,
  incident: putIncident,
  oncall(change) {
    setClock({ now: change.at, mode: clock.mode });
    onCallChanged(change);
  },
  person: personChanged,
  subscription(s) {
    subscriptions.delete(s.id);
    subscriptions.set(s.id, s);
    later(renderSubscriptions);
  },
  delivery(d) {
    deliveries = [d, ...deliveries].slice(0, KEPT_DELIVERIES);
    later(renderDeliveries);
  },
  request(entry) {
    journal = [entry, ...journal].slice(0, KEPT_JOURNAL);
    later(renderJournal);
  },
  faults(pending) {
    faults = pending;
    later(renderFaults);
  },
};

const STATE_TEXT_OF: Record<FeedState['phase'], string> = {
  connecting: 'Connecting…',
  live: 'Live',
  refused: 'Not live',
  lost: 'Reconnecting…',
};
function showFeedState(state: FeedState): void {
  const shown = byId('feed-state');
  const text =
    state.phase === 'refused'
      ? `Not live: ${asLine(state.reason, 500)}. This page tries again by itself, every few seconds.`
      : state.phase === 'lost'
        ? 'Reconnecting… (the sandbox does not answer; this page tries again by itself)'
        : STATE_TEXT_OF[state.phase];
  if (shown.textContent !== text) shown.textContent = text;
  shown.className = `feed-state ${state.phase === 'live' ? 'live' : state.phase === 'connecting' ? '' : 'down'}`;
}

function apply(messages: readonly FeedMessage[]): void {
  for (const { name, data } of messages) {
    const handle = handlers[name] as ((data: unknown) => void) | undefined;
    handle?.(data);
  }
}

// Controls: each calls the sandbox's own control route and says what came back.

async function control(method: 'POST' | 'DELETE', path: string, body: unknown, done: (answer: unknown) => string): Promise<void> {
  const result = byId('control-result');
  try {
    const answer = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const parsed: unknown = await answer.json().catch(() => undefined);
    if (answer.ok) {
      result.textContent = done(parsed);
      result.className = 'result';
    } else {
      const said = errorText(parsed);
      const text = said === undefined ? `HTTP ${answer.status}` : asLine(said, 500);
      result.textContent = `Refused (${answer.status}): ${text}`;
      result.className = 'result error';
    }
  } catch (error) {
    result.textContent = `The sandbox did not answer: ${(error as Error).message}`;
    result.className = 'result error';
  }
}

const clockMoved = (answer: unknown) => `The clock is now ${time((answer as ClockRow).now)}.`;

function wireControls(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-advance-hours]')) {
    button.addEventListener('click', () => void control('POST', '/_sandbox/clock', { advanceMs: Number(button.dataset.advanceHours) * HOUR_MS }, clockMoved));
  }
  byId<HTMLFormElement>('clock-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void control('POST', '/_sandbox/clock', { set: byId<HTMLInputElement>('clock-set').value.trim() }, clockMoved);
  });
  byId<HTMLFormElement>('fault-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const method = byId<HTMLSelectElement>('fault-method').value;
    const fault = {
      path: byId<HTMLInputElement>('fault-path').value.trim(),
      status: Number(byId<HTMLInputElement>('fault-status').value),
      times: Number(byId<HTMLInputElement>('fault-times').value),
      body: byId<HTMLInputElement>('fault-body').value,
      ...(method ? { method } : {}),
    };
    void control(
      'POST',
      '/_sandbox/faults',
      fault,
      () => `Fault injected: the next ${fault.times === 1 ? 'request' : `${fault.times} requests`} to ${fault.path} get ${fault.status}.`,
    );
  });
  byId('fault-clear').addEventListener('click', () => void control('DELETE', '/_sandbox/faults', undefined, () => 'Every fault is cleared.'));
}

function wirePaging<Row>(prefix: string, list: Paged<Row>, read: () => Promise<void>): void {
  byId(`${prefix}-prev`).addEventListener('click', () => {
    list.offset = Math.max(0, list.offset - PAGE_SIZE);
    void read();
  });
  byId(`${prefix}-next`).addEventListener('click', () => {
    list.offset += PAGE_SIZE;
    void read();
  });
  let typing: number | undefined;
  byId<HTMLInputElement>(`${prefix}-q`).addEventListener('input', (event) => {
    clearTimeout(typing);
    typing = window.setTimeout(() => {
      list.query = (event.target as HTMLInputElement).value;
      list.offset = 0;
      void read();
    }, 200);
  });
}

async function showAssumptions(): Promise<void> {
  const answer = await fetch('/_sandbox/console/assumptions');
  if (!answer.ok) return;
  const list = byId('assumptions-list');
  for (const assumption of (await answer.json()) as AssumptionRow[])
    list.append(el('dt', `${assumption.topic} (${assumption.id})`), el('dd', assumption.choice));
}

function start(): void {
  wireControls();
  wirePaging('teams', teams, readTeams);
  wirePaging('people', people, readPeople);
  byId('incidents-prev').addEventListener('click', () => {
    incidentOffset = Math.max(0, incidentOffset - INCIDENT_PAGE);
    renderIncidents();
  });
  byId('incidents-next').addEventListener('click', () => {
    incidentOffset += INCIDENT_PAGE;
    renderIncidents();
  });
  byId('journal-q').addEventListener('input', () => later(renderJournal));
  byId('journal-status').addEventListener('change', () => later(renderJournal));
  void showAssumptions();
  connectFeed({ events: apply, state: showFeedState });
}

start();
