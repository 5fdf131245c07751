// The menu for small screens (spec section 2), in two forms: the full-screen overlay once JavaScript
// runs, and before that (or without it) a disclosure that the browser opens by itself.
import { useDialog } from "../lib/useDialog";
import { Icon } from "./Icon";
import { PRICE_LIST_HREF } from "./nav";
import { NavList } from "./NavList";

interface MobileMenuProps {
  path: string;
  /** The WhatsApp chat link, its first message written in. */
  chatHref: string;
  onClose: () => void;
  onSearch: () => void;
}

/** Shown while open: close button, the links, 'Search Pricing' and the chat link. */
export function MobileMenu({ path, chatHref, onClose, onSearch }: MobileMenuProps) {
  const dialog = useDialog(true, onClose);
  return (
    <div ref={dialog} className="overlay mobile-menu" role="dialog" aria-modal="true" aria-label="Menu">
      <button type="button" className="icon-button mobile-menu__close" aria-label="Close menu" onClick={onClose}>
        <Icon name="close" />
      </button>
      <nav aria-label="Mobile">
        <NavList path={path} className="mobile-menu__links" onChoose={onClose} />
      </nav>
      <button type="button" className="button button--outline mobile-menu__search" onClick={onSearch}>
        <Icon name="search" /> Search Pricing
      </button>
      <ChatLink href={chatHref} />
    </div>
  );
}

/** The menu before JavaScript has loaded: a `<details>` the browser opens and closes by itself, with
 * the same links; 'Search Pricing' leads to the price list. Replaced by the overlay once hydrated. */
export function MenuDisclosure({ path, chatHref }: Pick<MobileMenuProps, "path" | "chatHref">) {
  return (
    <details className="menu-disclosure site-header__menu">
      <summary className="icon-button" aria-label="Menu">
        <Icon name="menu" className="icon menu-disclosure__when-closed" />
        <Icon name="close" className="icon menu-disclosure__when-open" />
      </summary>
      <nav className="menu-disclosure__panel" aria-label="Mobile">
        <NavList path={path} className="mobile-menu__links" />
        <a className="button button--outline mobile-menu__search" href={PRICE_LIST_HREF}>
          <Icon name="search" /> Search Pricing
        </a>
        <ChatLink href={chatHref} />
      </nav>
    </details>
  );
}

function ChatLink({ href }: { href: string }) {
  return (
    <a className="button button--whatsapp" href={href} target="_blank" rel="noopener noreferrer">
      <Icon name="chat" /> Chat on WhatsApp
    </a>
  );
}
