// 'Showing 1–20 of 57' and Previous / Next under a dashboard list. Real links to ?page=N, so they
// work without JavaScript; once hydrated, the list is fetched instead of the page.
import type { MouseEvent } from "react";
import { pageCount, pageSummary } from "../../lib/admin/display";

interface PaginationProps {
  /** What is listed, for the landmark's name: 'Orders'. */
  label: string;
  page: number;
  pageSize: number;
  total: number;
  /** More items match than `total` (the count stopped there): a next page is offered while this one is full. */
  more?: boolean;
  /** The address of a page of this list. */
  href: (page: number) => string;
  onPage: (page: number) => void;
}

/** The highest page the dashboard's lists serve (`MAX_PAGE` in `routes/admin/query.rs`). */
const MAX_PAGE = 10_000;

/** The summary line and the two links; nothing when the list is empty. */
export function Pagination({ label, page, pageSize, total, more = false, href, onPage }: PaginationProps) {
  if (total <= 0) return null;
  // With `more`, a next page while this one is full, up to the last page the server serves.
  const pages = more ? Math.min(Math.max(pageCount(total, pageSize), page + 1), MAX_PAGE) : pageCount(total, pageSize);
  const go = (target: number) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onPage(target);
  };
  return (
    <nav className="pagination" aria-label={`${label} pages`}>
      <p className="pagination__summary">{pageSummary(page, pageSize, total, more)}</p>
      {pages > 1 && (
        <div className="pagination__links">
          {page > 1 && (
            <a className="button button--outline" href={href(page - 1)} rel="prev" onClick={go(page - 1)}>
              Previous
            </a>
          )}
          {page < pages && (
            <a className="button button--outline" href={href(page + 1)} rel="next" onClick={go(page + 1)}>
              Next
            </a>
          )}
        </div>
      )}
    </nav>
  );
}
