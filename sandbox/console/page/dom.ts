// The page's DOM helpers: every element made here, every sandbox text put in by text.ts.
import { putText } from './text.ts';

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The console page has no #${id}`);
  return found as T;
}

/** An element holding the page's own words (never a sandbox text: `short` and `long` take those). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function cell(kind: 'short' | 'long', value: string | number | null, longest: number, className?: string): HTMLTableCellElement {
  const td = el('td', undefined, className ? `${kind} ${className}` : kind);
  if (value === null) td.textContent = '—';
  else putText(td, String(value), longest);
  return td;
}

/**
 * A cell of a short value (an id, a status, a time, a count): on one line whatever the other
 * cells of its row hold, so `inc_0005` or `triggered` never breaks into pieces.
 */
export const short = (value: string | number | null, longest: number, className?: string) => cell('short', value, longest, className);

/**
 * A cell of a long text (a title, a name, a path): it wraps between words, and breaks inside a
 * word only where the word alone is wider than the column (a path, a name without spaces).
 */
export const long = (value: string | null, longest: number, className?: string) => cell('long', value, longest, className);

export function row(cells: readonly HTMLTableCellElement[], id?: string): HTMLTableRowElement {
  const tr = el('tr');
  if (id !== undefined) tr.dataset.id = id;
  tr.append(...cells);
  return tr;
}

export function fillTable(tbodyId: string, rows: readonly HTMLTableRowElement[], emptyText: string, columns: number): void {
  const tbody = byId<HTMLTableSectionElement>(tbodyId);
  if (rows.length > 0) {
    tbody.replaceChildren(...rows);
    return;
  }
  const td = el('td', emptyText, 'empty');
  td.colSpan = columns;
  tbody.replaceChildren(row([td]));
}
