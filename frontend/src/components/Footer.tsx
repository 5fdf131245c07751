// The shared footer (spec section 2).
import { telHref } from "../lib/format";
import type { SharedProps } from "../lib/types";
import { Icon } from "./Icon";
import { Logo } from "./Logo";

/** Tagline, links, business details and the copyright line. */
export function Footer({ year, business }: Pick<SharedProps, "year" | "business">) {
  const website = business.website.replace(/^https?:\/\//, "").replace(/\/$/, "");
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div>
          <Logo name={business.name} size="small" />
          <p className="site-footer__tagline">Express Laundry Services</p>
        </div>
        <nav aria-label="Footer">
          <h2 className="site-footer__heading">Quick links</h2>
          <ul>
            <li>
              <a href="/pricing">Pricing</a>
            </li>
            <li>
              <a href="/order">Place an Order</a>
            </li>
            <li>
              <a href="/tracking">Track Your Order</a>
            </li>
            <li>
              <a href="/contact">Contact Us</a>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="site-footer__heading">Get in touch</h2>
          <ul className="site-footer__details">
            <li>
              <Icon name="phone" />
              <a href={telHref(business.phone)}>{business.phone}</a>
            </li>
            <li>
              <Icon name="mail" />
              <a href={`mailto:${business.email}`}>{business.email}</a>
            </li>
            <li>
              <Icon name="globe" />
              <a href={business.website}>{website}</a>
            </li>
            <li>
              <Icon name="pin" />
              <span>{business.location}</span>
            </li>
            <li>
              <Icon name="truck" />
              <span>Pickup & delivery available</span>
            </li>
          </ul>
        </div>
      </div>
      <p className="site-footer__copyright">
        © {year} {business.name}. All rights reserved. <a href="/privacy">Privacy notice</a>
      </p>
    </footer>
  );
}
