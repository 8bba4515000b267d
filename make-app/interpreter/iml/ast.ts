/**
 * The parsed form of an expression. `at` is an offset in the expression source (the
 * node's first character; for binary nodes, the operator) so evaluation errors can say
 * where they happened.
 */

export type BinaryOperator = '*' | '/' | '%' | '+' | '-' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||';

export type Expr =
  | { readonly kind: 'literal'; readonly value: string | number | boolean | null | undefined | readonly never[] | RegExp; readonly at: number }
  | { readonly kind: 'variable'; readonly name: string; readonly at: number }
  /** a.b and a.`b c` */
  | { readonly kind: 'member'; readonly object: Expr; readonly name: string; readonly at: number }
  /** a[n], 1-based */
  | { readonly kind: 'index'; readonly object: Expr; readonly index: Expr; readonly at: number }
  | { readonly kind: 'not'; readonly operand: Expr; readonly at: number }
  | { readonly kind: 'binary'; readonly operator: BinaryOperator; readonly left: Expr; readonly right: Expr; readonly at: number }
  /** Only known functions with a valid argument count get here: the parser checks both. */
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Expr[]; readonly at: number };
