import { phoneNumber } from '../schemas/primitives.ts';
import { check } from '../validation.ts';

/** A phone number as the source gives it, with what the source says of it. */
export interface SourcePhone {
  /** With its country code: `+<country code> <number>` (Opsgenie gives `1-4155550123`, PagerDuty `country_code` and `address`). */
  readonly raw: string;
  /** The contact method: `sms`, `voice`, `phone`... as the source names it. */
  readonly method: string;
  /** The source can reach the person at it now (enabled, not blacklisted). */
  readonly usable: boolean;
  /** Why it is not usable, in the source's words where it gives some ("disabled", "blacklisted"). */
  readonly why?: string | undefined;
}

/**
 * A number in E.164 (`+14155550123`), read by the directory's own phone rule (the shared
 * schema: separators removed, `+` and 7 to 15 digits), or undefined when it is not one. A
 * number without its country code cannot be told: none. (Each source's reader writes its own
 * form as `+<country code> <number>` first: opsgenie.ts, pagerduty.ts.)
 */
export function e164Of(raw: string): string | undefined {
  const text = raw.trim();
  if (!text.startsWith('+')) return undefined;
  const checked = check(phoneNumber, text);
  return checked.ok ? checked.value : undefined;
}

/** What was taken from a person's numbers, and why, for the summary. */
export interface PhoneChoice {
  /** The number taken, in E.164; undefined when the person has none that reads as one. */
  readonly phone: string | undefined;
  readonly taken: SourcePhone | undefined;
  /** The other distinct numbers, not taken. */
  readonly others: readonly { readonly phone: string; readonly from: SourcePhone }[];
  /** Numbers that do not read as international ones (no country code, letters): not taken. */
  readonly unreadable: readonly SourcePhone[];
}

/**
 * The rule for a person with several numbers: a usable one before a disabled one, then the
 * source's own order (Opsgenie's `applyOrder`, PagerDuty's list). The same number given for
 * SMS and for voice is one number.
 */
export function choosePhone(phones: readonly SourcePhone[]): PhoneChoice {
  const readable: { phone: string; from: SourcePhone }[] = [];
  const unreadable: SourcePhone[] = [];
  for (const from of phones) {
    const phone = e164Of(from.raw);
    if (phone === undefined) unreadable.push(from);
    else readable.push({ phone, from });
  }
  // A stable sort: usable first, the source's order kept within each.
  const ordered = [...readable].sort((a, b) => Number(b.from.usable) - Number(a.from.usable));
  const distinct = ordered.filter((entry, at) => ordered.findIndex((other) => other.phone === entry.phone) === at);
  const [first, ...others] = distinct;
  return { phone: first?.phone, taken: first?.from, others, unreadable };
}

/** `sms, disabled` for the summary. */
export const describePhone = (phone: SourcePhone): string => `${phone.method}, ${phone.usable ? 'enabled' : (phone.why ?? 'disabled')}`;
