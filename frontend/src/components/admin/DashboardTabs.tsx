// The dashboard's tablist: a link per tab with its count, and the arrow keys between tabs once hydrated.
import { type KeyboardEvent, type MouseEvent, useRef } from "react";
import type { AdminTab } from "../../lib/admin/types";
import { tabHref } from "../../lib/admin/urls";

/** A tab: its id in the address, and its name. */
export interface DashboardTab {
  id: AdminTab;
  label: string;
}

/** Every staff member's tabs. */
export const TABS: readonly DashboardTab[] = [
  { id: "orders", label: "Orders" },
  { id: "messages", label: "Messages" },
  { id: "inbox", label: "Texts" },
  { id: "run", label: "Day's run" },
  { id: "money", label: "Money" },
];

/** The owner's tabs (and staff's when the owner shares reports): the others, and the reports. */
export const OWNER_TABS: readonly DashboardTab[] = [...TABS, { id: "reports", label: "Reports" }];

interface DashboardTabsProps {
  tabs: readonly DashboardTab[];
  /** The tab shown. */
  tab: AdminTab;
  /** Before hydration every tab stays in the Tab order, so that the links work from the keyboard
   * without JavaScript; once hydrated, the tablist's arrow keys take over (one Tab stop). */
  hydrated: boolean;
  /** The count beside a tab's name, when it has one. */
  counts: Record<AdminTab, number | undefined>;
  /** Shows a tab; false when it is a page of its own instead (the reports, loaded for their period). */
  onShow: (tab: AdminTab) => boolean;
}

/** The tablist. */
export function DashboardTabs({ tabs, tab, hydrated, counts, onShow }: DashboardTabsProps) {
  const tabElements = useRef<Partial<Record<AdminTab, HTMLAnchorElement | null>>>({});

  function show(next: AdminTab, focus: boolean) {
    if (onShow(next) && focus) tabElements.current[next]?.focus();
  }

  function onTabClick(event: MouseEvent<HTMLAnchorElement>, next: AdminTab) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    show(next, false);
  }

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((entry) => entry.id === tab);
    const last = tabs.length - 1;
    const targets: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const target = targets[event.key];
    const next = target === undefined ? undefined : tabs[target];
    if (!next) return;
    event.preventDefault();
    show(next.id, true);
  }

  return (
    <div className="tabs" role="tablist" aria-label="Dashboard" onKeyDown={onTabKey}>
      {tabs.map((entry) => (
        <a
          key={entry.id}
          ref={(element) => {
            tabElements.current[entry.id] = element;
          }}
          id={`tab-${entry.id}`}
          className="tabs__tab"
          href={tabHref(entry.id)}
          role="tab"
          aria-selected={tab === entry.id}
          aria-controls={`panel-${entry.id}`}
          tabIndex={hydrated && tab !== entry.id ? -1 : undefined}
          onClick={(event) => onTabClick(event, entry.id)}
        >
          {entry.label}
          {counts[entry.id] !== undefined && (
            <>
              {" "}
              <span className="tabs__count">
                {counts[entry.id]}
                {entry.id === "inbox" && <span className="visually-hidden"> unread</span>}
              </span>
            </>
          )}
        </a>
      ))}
    </div>
  );
}
