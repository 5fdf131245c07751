// The shared header (spec section 2): wordmark, links, WhatsApp, search toggle, mobile menu.
import { useState } from "react";
import { whatsappHref } from "../lib/format";
import type { SharedProps } from "../lib/types";
import { Icon } from "./Icon";
import { Logo } from "./Logo";
import { MobileMenu } from "./MobileMenu";
import { NAV_LINKS } from "./nav";
import { SearchModal } from "./SearchModal";

/** The sticky site header. The search modal and the menu only exist while open. */
export function Header({ path, business, priceList }: Pick<SharedProps, "path" | "business" | "priceList">) {
  const [searchOpen, setSearchOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);

  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <a href="/" className="site-header__brand">
          <Logo name={business.name} size="medium" />
        </a>
        <nav className="site-nav" aria-label="Main">
          <ul>
            {NAV_LINKS.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className={link.href === path ? "active" : undefined}
                  aria-current={link.href === path ? "page" : undefined}
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="site-header__actions">
          <button
            type="button"
            className="icon-button"
            aria-label="Search pricing items"
            aria-expanded={searchOpen}
            onClick={() => setSearchOpen((open) => !open)}
          >
            <Icon name="search" />
          </button>
          <a
            className="icon-button icon-button--whatsapp site-header__whatsapp"
            href={whatsappHref(business.whatsapp)}
            target="_blank"
            rel="noopener noreferrer"
            aria-label="Chat with us on WhatsApp (opens in a new tab)"
          >
            <Icon name="chat" />
          </a>
          <button
            type="button"
            className="icon-button site-header__menu"
            aria-label="Open menu"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(true)}
          >
            <Icon name="menu" />
          </button>
        </div>
      </div>
      {searchOpen && <SearchModal priceList={priceList} onClose={() => setSearchOpen(false)} />}
      {menuOpen && (
        <MobileMenu
          path={path}
          whatsapp={business.whatsapp}
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
