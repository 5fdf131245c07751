// The four header links of spec section 2, shared by the header and the mobile menu.

/** A header link. */
export interface NavLink {
  href: string;
  label: string;
}

/** Home, Pricing, Order, Contact, in that order. */
export const NAV_LINKS: readonly NavLink[] = [
  { href: "/", label: "Home" },
  { href: "/pricing", label: "Pricing" },
  { href: "/order", label: "Order" },
  { href: "/contact", label: "Contact" },
];
