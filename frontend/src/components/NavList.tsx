// The list of header links, with the current page's link highlighted (spec section 2).
import { NAV_LINKS } from "./nav";

interface NavListProps {
  /** The current path: its link is marked active. */
  path: string;
  className?: string;
  /** Called when a link is chosen (the mobile menu closes itself). */
  onChoose?: () => void;
}

/** Every header link as a list; the one whose path equals the current path is active. */
export function NavList({ path, className, onChoose }: NavListProps) {
  return (
    <ul className={className}>
      {NAV_LINKS.map((link) => (
        <li key={link.href}>
          <a
            href={link.href}
            className={link.href === path ? "active" : undefined}
            aria-current={link.href === path ? "page" : undefined}
            onClick={onChoose}
          >
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
