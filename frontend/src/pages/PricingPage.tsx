// /pricing (spec section 2): headline price, four benefits, the full price list (each item can be
// added to an order from here), payment card.
import { Icon, type IconName } from "../components/Icon";
import { addToOrderHref } from "../lib/addToOrder";
import { formatKsh, itemAnchor } from "../lib/format";
import type { PricingProps } from "../lib/types";
import type { PageMeta } from "../routes";

const BENEFITS: readonly { icon: IconName; title: string; text: string }[] = [
  { icon: "truck", title: "Free Pickup", text: "We collect and deliver at no extra cost." },
  { icon: "clock", title: "24/7 Service", text: "Book any time, day or night." },
  { icon: "shield", title: "Quality Guaranteed", text: "Not satisfied? We re-clean it free." },
  { icon: "sparkle", title: "Professional Care", text: "Trained staff and eco-friendly cold-water washing." },
];

/** The first price-list entry is the headline offer. */
function headline(props: PricingProps) {
  return props.priceList[0] ?? { item: "General Laundry (1-5kg)", price: 500 };
}

/** Title and description for the document shell. */
export function meta(props: PricingProps): PageMeta {
  const offer = headline(props);
  return {
    title: `Laundry & Dry Cleaning Prices in Nairobi | ${props.business.name}`,
    description: `${offer.item} from ${formatKsh(offer.price)}. Shirts, suits, bedding, curtains and more: see all ${props.priceList.length} prices. Free pickup and delivery, 24/7.`,
  };
}

/** The pricing page. */
export default function PricingPage(props: PricingProps) {
  const offer = headline(props);
  return (
    <>
      <section className="hero hero--compact">
        <div className="container hero__inner">
          <p className="eyebrow">Simple, transparent pricing</p>
          <h1>Our Pricing</h1>
          <div className="price-headline">
            <p className="price-headline__label">{offer.item}</p>
            <p className="price-headline__amount">{formatKsh(offer.price)}</p>
            <p className="price-headline__note">Free pickup and delivery included</p>
            <a className="button button--primary button--large" href="/order">
              Order Now
            </a>
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="benefits-title">
        <div className="container">
          <h2 id="benefits-title" className="visually-hidden">
            Why customers choose us
          </h2>
          <ul className="benefits">
            {BENEFITS.map((benefit) => (
              <li key={benefit.title} className="benefit">
                <span className="benefit__icon">
                  <Icon name={benefit.icon} />
                </span>
                <h3>{benefit.title}</h3>
                <p>{benefit.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section--tinted" aria-labelledby="price-list-title">
        <div className="container">
          <h2 id="price-list-title">Price List</h2>
          <p className="section__lead">All prices in Kenya shillings (KSh), per item unless stated.</p>
          <ul className="price-grid">
            {props.priceList.map((entry) => (
              <li key={entry.item} id={itemAnchor(entry.item)} className="price-card">
                <span className="price-card__item">{entry.item}</span>
                <span className="price-card__price">{formatKsh(entry.price)}</span>
                <a className="add-to-order" href={addToOrderHref(entry.id)}>
                  Add to order<span className="visually-hidden"> – {entry.item}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="payment-title">
        <div className="container">
          <div className="card payment-card">
            <span className="payment-card__icon">
              <Icon name="wallet" />
            </span>
            <h2 id="payment-title">Payment Information</h2>
            <p>
              Pay with M-PESA to Till Number <strong className="till">{props.business.mpesaTill}</strong>, using your
              phone number as the reference, or choose Pay on Delivery when you order.
            </p>
            <a className="button button--primary" href="/order">
              Place Your Order
            </a>
          </div>
        </div>
      </section>
    </>
  );
}
