// The header links of spec section 2, shared by the header, the mobile menu and the menu that works
// before JavaScript: the spec's four, then Track Order (issue 14: tracking within reach).

/** A header link. */
export interface NavLink {
  href: string;
  label: string;
}

/** Home, Pricing, Order, Contact, in that order, then Track Order. */
export const NAV_LINKS: readonly NavLink[] = [
  { href: "/", label: "Home" },
  { href: "/pricing", label: "Pricing" },
  { href: "/order", label: "Order" },
  { href: "/contact", label: "Contact" },
  { href: "/tracking", label: "Track Order" },
];

/** Where the search toggle leads before JavaScript has loaded: the price list itself. */
export const PRICE_LIST_HREF = "/pricing#price-list-title";
