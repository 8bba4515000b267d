/**
 * What the hostile battery (battery.ts) needs of a surface: three calls through its real
 * runtime against a base URL and key the battery chooses, each giving a normalized outcome,
 * and the few facts in which surfaces differ on purpose. A driver states those facts; it never
 * decides whether a case passed.
 */

/** Where a call goes and with which key; `timeoutMs` only for drivers whose surface takes one (`hang.knob`). */
export interface Target {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly timeoutMs?: number;
}

/** What the call came to, as a user of the surface would see it. */
export type Outcome =
  | { readonly ok: true; readonly value: unknown; readonly shown: Shown }
  | {
      readonly ok: false;
      /** The text the user reads (for n8n, message and description). */
      readonly message: string;
      /** The kind of failure, as precise as the surface says it: an error code, a Zapier error name, a Make error type. */
      readonly kind: string;
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

export type Call = (target: Target) => Promise<Outcome>;

/** A case a surface cannot run through its runtime here: why, and where it is proven instead. */
export interface Gap {
  readonly gap: string;
}
export const isGap = (value: unknown): value is Gap => typeof value === 'object' && value !== null && 'gap' in value;

export interface SurfaceDriver {
  /** Its name in the battery's report. */
  readonly name: string;
  /** The production surface it drives (`name` in surfaces/index.ts), when it is one of those. */
  readonly surface?: string;
  /** List teams, create an incident ("Disk full"), check the key. */
  readonly read: Call;
  readonly write: Call;
  readonly checkKey: Call | Gap;
  readonly redirect: {
    /** The `kind` of the outcome of a redirect to another origin. */
    readonly kind: string;
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
  describe: (error: unknown) => { message: string; kind: string; own: boolean },
  shownAlso: Shown = {},
): Promise<Outcome> {
  try {
    const value = await call();
    return { ok: true, value, shown: { ...shownAlso, returned: value } };
  } catch (error) {
    return { ok: false, ...describe(error), shown: { ...shownAlso, thrown: error } };
  }
}
