/**
 * Errors raised while reading or validating a tet mesh. Both carry the list of issues so a
 * caller (the app's import dialog, a test) can show every problem, not just the first.
 */
import type { MeshIssue } from './types';

/** At most this many ids are spelled out in a message; the rest are counted. */
const MAX_LISTED_IDS = 10;

/** "3, 8, 12" or "3, 8, ... (10 ids) and 25 more": keeps messages short for big meshes. */
export function listIds(ids: ArrayLike<number>, describe?: (id: number) => string): string {
  const n = ids.length;
  const shown = Math.min(n, MAX_LISTED_IDS);
  const parts: string[] = [];
  for (let i = 0; i < shown; i++) parts.push(describe ? describe(ids[i]) : String(ids[i]));
  let text = parts.join(', ');
  if (n > shown) text += ` and ${n - shown} more`;
  return text;
}

/** The mesh parsed, but is not a valid tet mesh (degenerate, non-manifold, bad indices...). */
export class MeshValidationError extends Error {
  readonly issues: MeshIssue[];
  readonly source: string | undefined;

  constructor(message: string, issues: MeshIssue[], source?: string) {
    super(source ? `${source}: ${message}` : message);
    this.name = 'MeshValidationError';
    this.issues = issues;
    this.source = source;
  }
}

/** The text of a mesh file could not be read as its format (syntax, counts, truncation). */
export class MeshParseError extends Error {
  readonly file: string;
  /** 1-based line of the problem; 0 when it concerns the whole file (e.g. missing section). */
  readonly line: number;
  readonly problem: string;

  constructor(file: string, line: number, problem: string) {
    super(line > 0 ? `${file}:${line}: ${problem}` : `${file}: ${problem}`);
    this.name = 'MeshParseError';
    this.file = file;
    this.line = line;
    this.problem = problem;
  }

  get issues(): MeshIssue[] {
    return [this.line > 0 ? { message: this.problem, line: this.line } : { message: this.problem }];
  }
}
