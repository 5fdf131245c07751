// The full-screen menu overlay for small screens (spec section 2).
import { whatsappHref } from "../lib/format";
import { useDialog } from "../lib/useDialog";
import { Icon } from "./Icon";
import { NAV_LINKS } from "./nav";

interface MobileMenuProps {
  path: string;
  whatsapp: string;
  onClose: () => void;
  onSearch: () => void;
}

/** Shown while open: close button, the four links, 'Search Pricing' and the chat link. */
export function MobileMenu({ path, whatsapp, onClose, onSearch }: MobileMenuProps) {
  const dialog = useDialog(true, onClose);
  return (
    <div ref={dialog} className="overlay mobile-menu" role="dialog" aria-modal="true" aria-label="Menu">
      <button type="button" className="icon-button mobile-menu__close" aria-label="Close menu" onClick={onClose}>
        <Icon name="close" />
      </button>
      <nav aria-label="Mobile">
        <ul className="mobile-menu__links">
          {NAV_LINKS.map((link) => (
            <li key={link.href}>
              <a
                href={link.href}
                className={link.href === path ? "active" : undefined}
                aria-current={link.href === path ? "page" : undefined}
                onClick={onClose}
              >
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <button type="button" className="button button--outline mobile-menu__search" onClick={onSearch}>
        <Icon name="search" /> Search Pricing
      </button>
      <a className="button button--whatsapp" href={whatsappHref(whatsapp)} target="_blank" rel="noopener noreferrer">
        <Icon name="chat" /> Chat on WhatsApp
      </a>
    </div>
  );
}
