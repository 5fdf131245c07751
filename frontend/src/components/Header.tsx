// The shared header (spec section 2): wordmark, links, WhatsApp, search toggle, mobile menu. Before
// JavaScript has loaded (or without it) the search toggle is a link to the price list and the menu a
// disclosure; once hydrated they become the spec's modal and overlay.
import { useState } from "react";
import { bookingMessage, whatsappHref } from "../lib/format";
import type { SharedProps } from "../lib/types";
import { useHydrated } from "../lib/useHydrated";
import { Icon } from "./Icon";
import { Logo } from "./Logo";
import { MenuDisclosure, MobileMenu } from "./MobileMenu";
import { PRICE_LIST_HREF } from "./nav";
import { NavList } from "./NavList";
import { SearchModal } from "./SearchModal";

/** The sticky site header. The search modal and the menu only exist while open. */
export function Header({ path, business, priceList }: Pick<SharedProps, "path" | "business" | "priceList">) {
  const [searchOpen, setSearchOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const hydrated = useHydrated();
  // A chat from the header is most often a booking: it starts with what staff need to take one.
  const chatHref = whatsappHref(business.whatsapp, bookingMessage(business.name));

  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <a href="/" className="site-header__brand">
          <Logo name={business.name} size="medium" />
        </a>
        <nav className="site-nav" aria-label="Main">
          <NavList path={path} />
        </nav>
        <div className="site-header__actions">
          {hydrated ? (
            <button
              type="button"
              className="icon-button"
              aria-label="Search pricing items"
              aria-expanded={searchOpen}
              onClick={() => setSearchOpen((open) => !open)}
            >
              <Icon name="search" />
            </button>
          ) : (
            <a className="icon-button" href={PRICE_LIST_HREF} aria-label="Search pricing items">
              <Icon name="search" />
            </a>
          )}
          <a
            className="icon-button icon-button--whatsapp site-header__whatsapp"
            href={chatHref}
            target="_blank"
            rel="noopener noreferrer"
            aria-label="Chat with us on WhatsApp (opens in a new tab)"
          >
            <Icon name="chat" />
          </a>
          {hydrated ? (
            <button
              type="button"
              className="icon-button site-header__menu"
              aria-label="Open menu"
              aria-expanded={menuOpen}
              onClick={() => setMenuOpen(true)}
            >
              <Icon name="menu" />
            </button>
          ) : (
            <MenuDisclosure path={path} chatHref={chatHref} />
          )}
        </div>
      </div>
      {searchOpen && <SearchModal priceList={priceList} onClose={() => setSearchOpen(false)} />}
      {menuOpen && (
        <MobileMenu
          path={path}
          chatHref={chatHref}
          onClose={() => setMenuOpen(false)}
          onSearch={() => {
            setMenuOpen(false);
            setSearchOpen(true);
          }}
        />
      )}
    </header>
  );
}
