import type { PagerlyErrorCode } from '../../shared/errors.ts';

/**
 * What the hostile battery (battery.ts) and the conformance table (test/conformance/) need of
 * a surface: the calls they make through its real runtime against a base URL and key they
 * choose, each giving a normalized outcome, and the few facts in which surfaces differ on
 * purpose. A driver's one job is the mapping: its platform's result or error to an `Outcome`
 * whose `kind` is the shared error code. It states those facts; it never decides whether a
 * case passed.
 */

/** Where a call goes and with which key; `timeoutMs` only for drivers whose surface takes one (`hang.knob`). */
export interface Target {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly timeoutMs?: number;
  /** The e-mail a directory call is made with, in place of `INPUT.email` (the address rule's rows). */
  readonly email?: string;
}

/** What the call came to, as a user of the surface would see it. */
export type Outcome =
  | { readonly ok: true; readonly value: unknown; readonly shown: Shown }
  | {
      readonly ok: false;
      /** The text the user reads (for n8n, message and description). */
      readonly message: string;
      /**
       * The kind of failure as the shared error code (shared/errors.ts), read from what the
       * surface gives: the code itself where it carries one, else its error class, status and
       * the shared wording (`codeOfSharedMessage`). `unknown` when nothing says.
       */
      readonly kind: ErrorKind;
      /** The failure as the surface names it: an error code, a Zapier error name, a Make error type, an n8n class. */
      readonly native: string;
      /**
       * Whether it is an error the surface makes for its users (a PagerlyError, a Zapier or Make
       * error class, n8n's node errors, the CLI's JSON error), not a library's bare error that got through.
       */
      readonly own: boolean;
      readonly shown: Shown;
    };

/**
 * Everything the surface gave back, by place: returned values, thrown errors (whole, so that
 * their stack, causes and own properties are searched too), printed text.
 */
export type Shown = Readonly<Record<string, unknown>>;

export type ErrorKind = PagerlyErrorCode | 'unknown';

export type Call = (target: Target) => Promise<Outcome>;

/**
 * The fixed input of the calls that take one: the team whose on-call people are read, the
 * e-mail of the directory entry, the id of the hook removed. The conformance service answers
 * whatever comes; these only have to be the same on every surface.
 */
export const INPUT = { team: 'Platform', email: 'grace@example.com', phone: '+14155550123', hookId: 'sub_0451' } as const;

/** A case a surface cannot run through its runtime here: why, and where it is proven instead. */
export interface Gap {
  readonly gap: string;
}
export const isGap = (value: unknown): value is Gap => typeof value === 'object' && value !== null && 'gap' in value;

export interface SurfaceDriver {
  /** Its name in the battery's report. */
  readonly name: string;
  /** The production surface it drives (`name` in scripts/surfaces.ts), when it is one of those. */
  readonly surface?: string;
  /** List teams, create an incident ("Disk full"), check the key. */
  readonly read: Call;
  readonly write: Call;
  readonly checkKey: Call | Gap;
  /**
   * Who is on call in `INPUT.team`, as the list of people the surface gives (each with
   * whatever fields it keeps), however it reads them (the team list first, or not).
   */
  readonly onCall: Call;
  /**
   * Who is on call in every team (no team given), as the list of results the surface gives,
   * each with its team (a driver whose surface prints them grouped by team adds it); Make asks
   * one team a run, so its driver reads the team list ("Make an API call") and runs the
   * search module once per team, as a scenario iterating over the teams does.
   */
  readonly everyoneOnCall: Call;
  /** The directory entry of `INPUT.email`: the entry, or an empty value when the surface found none. */
  readonly directoryEntry: Call;
  /** Change the phone number of `INPUT.email`'s directory entry to `INPUT.phone`: the entry the surface gives back. */
  readonly directoryWrite: Call;
  /** Remove the hook `INPUT.hookId`, where the surface has instant triggers. */
  readonly unsubscribe?: Call;
  readonly redirect: {
    /** The `native` kind of the outcome of a redirect to another origin (its `kind` is always `redirect`). */
    readonly native: string;
    /** How the error says the redirect's status, e.g. `HTTP 302`. */
    statusSaid(status: number): string;
    /** Whether the error names the target's host, or why it cannot. */
    readonly namesTargetHost: true | Gap;
    /** Whether a redirect to the same origin is followed (with the key), or why it is refused. */
    readonly sameOrigin: 'followed' | Gap;
  };
  /**
   * `knob`: the surface takes a time-out (`Target.timeoutMs`), and a service that never answers
   * must end in an error within it. Otherwise the surface's time-out is fixed and too long for
   * the suite: a slow answer must be waited for and returned, and `gap` says where the time-out
   * itself is proven.
   */
  readonly hang: 'knob' | Gap;
  /** An answer cut off mid-body that the surface notices only at its fixed time-out (a reason), or undefined. */
  cutOffGap?(framing: 'Content-Length' | 'chunked'): string | undefined;
  /** Echoes of the key a surface documents it cannot hide (a reason), or undefined. */
  echoGap?(echo: { form: string; key: string }, placement: { inText: boolean }): string | undefined;
  /** Hooks a test file running this surface must install (jest's beforeAll/afterEach), called at the top of the file. */
  useInTestFile?(): void;
}

/** The outcome of a call that resolves to a value or rejects with an error; `describe` reads the error. */
export async function settle(
  call: () => Promise<unknown>,
  describe: (error: unknown) => { message: string; kind: ErrorKind; native: string; own: boolean },
  shownAlso: Shown = {},
): Promise<Outcome> {
  try {
    const value = await call();
    return { ok: true, value, shown: { ...shownAlso, returned: value } };
  } catch (error) {
    return { ok: false, ...describe(error), shown: { ...shownAlso, thrown: error } };
  }
}

/**
 * The shared error code a message of the shared model says, for surfaces whose error class
 * covers several codes (Zapier's ThrottledError and HaltedError, n8n's NodeOperationError):
 * the wordings of shared/errors.ts and shared/http, which every surface passes on unchanged.
 */
export function codeOfSharedMessage(message: string): ErrorKind {
  const says: readonly [RegExp, ErrorKind][] = [
    [/TLS certificate/i, 'certificate'],
    [/Proxy Authentication Required|proxy .* refused the request/i, 'proxy'],
    [/rate limiting/i, 'rate_limited'],
    [/redirect/i, 'redirect'],
    [/API key was refused/i, 'authentication'],
    [/did not answer|timed out/i, 'timeout'],
    [/failed to .*\(HTTP 5\d\d/i, 'server'],
    [/not JSON|not of the documented shape|nested deeper/i, 'invalid_response'],
    [/refused the input/i, 'invalid_input'],
    [/not found/i, 'not_found'],
    [/not allowed|org admin can/i, 'permission'],
    [/does not exist|no such host/i, 'host_not_found'],
    [/could not reach|connection|network|reset/i, 'network'],
    // Input refused before sending: the address rule's words (shared/schemas/email-address.ts), the MCP SDK's for a tool's arguments.
    [/must be an e-mail address|Invalid arguments for tool/i, 'invalid_input'],
  ];
  return says.find(([pattern]) => pattern.test(message))?.[1] ?? 'unknown';
}
