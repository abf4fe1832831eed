/**
 * The page's filters and how they become the provider's list queries (GET /call and GET /chat of
 * its OpenAPI document): assistant, kind and the created-at range go to the provider; the text
 * search is the page's own (the provider has no text search), over the conversations loaded.
 * Pages follow each other by creation time: the next page asks for what was created before the
 * oldest row shown (`createdAtLt`), the same way for both lists. Pure.
 * @module
 */

export type Kind = 'all' | 'voice' | 'chat';

export interface Filters {
  /** An assistant's id, or '' for every assistant of the site. */
  assistantId: string;
  kind: Kind;
  /** YYYY-MM-DD as the date field gives it (the browser's own day), or ''. */
  from: string;
  to: string;
  search: string;
}

export const EMPTY_FILTERS: Filters = { assistantId: '', kind: 'all', from: '', to: '', search: '' };

/** Rows asked of each list per page. */
export const PAGE_SIZE = 25;
/** Longest search kept: a longer one cannot match a message shown anyway. */
export const MAX_SEARCH = 200;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The start of a local day as an ISO instant, or null for text that is no date. */
export function dayStart(day: string, plusDays = 0): string | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays);
  // new Date rolls 2026-02-31 over into March: such a date was not a real one.
  if (plusDays === 0 && (date.getMonth() !== Number(m[2]) - 1 || date.getDate() !== Number(m[3])))
    return null;
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** What is wrong with the filters, for the message by the date fields, or null. */
export function filtersProblem(filters: Filters): string | null {
  if (filters.from && !dayStart(filters.from)) return 'The start date is not a valid date.';
  if (filters.to && !dayStart(filters.to)) return 'The end date is not a valid date.';
  if (filters.from && filters.to && filters.from > filters.to)
    return 'The start date must not be after the end date.';
  return null;
}

export type ProviderQuery = Record<string, string | number>;

/** The created-at bounds of a page: the range's, narrowed by the cursor (the oldest row shown). */
function createdAtBounds(filters: Filters, cursor: string | null): ProviderQuery {
  const query: ProviderQuery = {};
  const from = filters.from ? dayStart(filters.from) : null;
  // Up to the end of the last day: before the start of the next one.
  const to = filters.to ? dayStart(filters.to, 1) : null;
  if (from) query.createdAtGe = from;
  const upper = [to, cursor].filter((t): t is string => t !== null).sort()[0];
  if (upper) query.createdAtLt = upper;
  return query;
}

/** GET /call's query for a page, or null when the filters leave calls out. */
export function callQuery(
  filters: Filters,
  cursor: string | null,
  pageSize = PAGE_SIZE,
): ProviderQuery | null {
  if (filters.kind === 'chat') return null;
  return {
    limit: pageSize,
    ...(filters.assistantId ? { assistantId: filters.assistantId } : {}),
    ...createdAtBounds(filters, cursor),
  };
}

/** GET /chat's query for a page (newest first), or null when the filters leave chats out. */
export function chatQuery(
  filters: Filters,
  cursor: string | null,
  pageSize = PAGE_SIZE,
): ProviderQuery | null {
  if (filters.kind === 'voice') return null;
  return {
    limit: pageSize,
    page: 1,
    sortOrder: 'DESC',
    ...(filters.assistantId ? { assistantId: filters.assistantId } : {}),
    ...createdAtBounds(filters, cursor),
  };
}

/** Filters as they are kept: search trimmed and capped. */
export const cleanFilters = (filters: Filters): Filters => ({
  ...filters,
  search: filters.search.trim().slice(0, MAX_SEARCH),
});
