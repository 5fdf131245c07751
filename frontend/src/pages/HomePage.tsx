// / (spec sections 1 and 2): the marketing home page. Kept whole although it is over 250 lines: it
// is the spec's sections in the order a visitor reads them, mostly text, and splitting it would scatter
// the quoted texts the spec asks for across files without making any one of them simpler.
import type { ReactNode } from "react";
import { Icon, type IconName } from "../components/Icon";
import achieng from "../assets/avatar-achieng.svg";
import otieno from "../assets/avatar-otieno.svg";
import videoPoster from "../assets/video-poster.svg";
import wanjiru from "../assets/avatar-wanjiru.svg";
import { Testimonial, type TestimonialData } from "../components/Testimonial";
import { formatKsh } from "../lib/format";
import { daysWords } from "../lib/reclean";
import type { HomeProps as OwnProps } from "../lib/generated/HomeProps";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Props of the home page: the intro video's address (INTRO_VIDEO_URL), the first-order discount,
 * whether texts are sent and pickup by text, when configured. */
export type HomeProps = SharedProps & OwnProps;

/** Sample testimonials (spec section 3: static sample data on the home page). */
const TESTIMONIALS: readonly TestimonialData[] = [
  {
    name: "Wanjiru Kamau",
    role: "Working mother, Kilimani",
    text: "They collected at 8pm and my family's clothes came back three days later, folded better than I ever manage. It gives me my Saturdays back.",
    rating: 5,
    source: "Google Review",
    image: wanjiru,
  },
  {
    name: "Brian Otieno",
    role: "Consultant, Westlands",
    text: "My suits go to dry cleaning every week. The valets are on time and the shirts come back crisp. Paying by M-PESA is easy.",
    rating: 5,
    source: "Facebook Review",
    image: otieno,
  },
  {
    name: "Achieng Odhiambo",
    role: "Student, Parklands",
    text: "They even cleaned my graduation gown and my daughter's big teddy bear. Friendly valets and fair prices.",
    rating: 5,
    source: "WhatsApp Message",
    image: achieng,
  },
];

const SERVICE_NAMES = [
  "Laundry",
  "Dry Cleaning",
  "Ironing",
  "Bedding Care",
  "Curtains",
  "Shawls & Gowns",
  "Teddy Bears",
];

const HOW_IT_WORKS: readonly { icon: IconName; title: string; text: string }[] = [
  {
    icon: "truck",
    title: "Schedule Pickup",
    text: "Book online, or call or WhatsApp us. A valet collects your laundry any day between 7pm and 10pm.",
  },
  {
    icon: "sparkle",
    title: "Professional Cleaning Care",
    text: "Every item is sorted, cleaned in eco-friendly cold water and pressed by our own staff.",
  },
  {
    icon: "shield",
    title: "Ready to Wear",
    text: "Your clothes come back fresh and folded in 3-4 days. Need them sooner? Choose next-day rush when you book.",
  },
];

/** The four steps after booking. Each says only what the service does: the texts (the 5:30pm ETA
 * window, the link to follow the valet and the order) are promised only when the server can send
 * them (Africa's Talking configured); otherwise the order is followed on /tracking. */
function whatToExpect(sendsTexts: boolean): readonly { title: string; text: ReactNode }[] {
  return [
    {
      title: "Confirm",
      text: "Book online, or call or WhatsApp us. We call you within 30 minutes to confirm your pickup time.",
    },
    {
      title: "Pickup",
      text: sendsTexts
        ? "Pickups happen any day between 7pm and 10pm. At 5:30pm a text gives a 30-minute ETA window."
        : "Your valet, one of our employees, collects your bag between 7pm and 10pm.",
    },
    {
      title: "Track",
      text: sendsTexts ? (
        <>
          A link to track the valet and the order is sent. You can also follow it on <a href="/tracking">Track Order</a>{" "}
          with your order ID or phone number.
        </>
      ) : (
        <>
          Follow your order on <a href="/tracking">Track Order</a> with your order ID or phone number.
        </>
      ),
    },
    { title: "Delivery", text: "We bring it back clean and folded. Pay by M-PESA or on delivery." },
  ];
}

const WHY_LOVE: readonly { icon: IconName; title: string; text: string }[] = [
  { icon: "clock", title: "24/7 and free pickup", text: "Book whenever suits you; pickup and delivery cost nothing." },
  {
    icon: "wallet",
    title: "Free personalised bags",
    text: "Your own laundry bags, yours to keep, with your first order.",
  },
  {
    icon: "sparkle",
    title: "Eco-friendly cleaning",
    text: "Cold-water washing that is gentle on fabrics and on Nairobi's water.",
  },
  {
    icon: "shield",
    title: "Our own valets",
    text: "The people at your door are our employees, trained and accountable.",
  },
];

/** Title and description for the document shell. */
export function meta(props: HomeProps): PageMeta {
  return {
    title: `${props.business.name}: Laundry & Dry Cleaning with Free Pickup in Nairobi`,
    description:
      "Laundry, dry cleaning, ironing and bedding care with free pickup and delivery in Nairobi. Book online 24/7; pickups 7pm-10pm, back in 3-4 days.",
  };
}

/** The home page. */
export default function HomePage(props: HomeProps) {
  const washAndFold = props.priceList[0];
  return (
    <>
      <section className="hero home-hero">
        <div className="container home-hero__inner">
          <div>
            <p className="eyebrow">Laundry & dry cleaning in Nairobi</p>
            <h1>We'll take the laundry. You take the time.</h1>
            <p className="section__lead">Free pickup and delivery, 24/7 booking, and a 100% satisfaction guarantee.</p>
            <div className="actions">
              <a className="button button--primary button--large" href="/order">
                Schedule a Pickup
              </a>
              <a className="button button--outline button--large" href="/pricing">
                View Pricing
              </a>
            </div>
            <p className="home-hero__track">
              Already booked? <a href="/tracking">Track your order</a>
            </p>
            {props.pickupByText && (
              // Only when texts are received and answered (AT_SHORTCODE and the callback are set up).
              <p className="home-hero__text">
                A pickup can be requested by texting a single letter to the provider's number.{" "}
                <strong>{`Text ${props.pickupByText.letter} to ${props.pickupByText.number}`}</strong> from the phone of
                an earlier order: we book the next free evening at the same address and text you back.
              </p>
            )}
          </div>
          {props.introVideoUrl && (
            // Nothing of the video is downloaded until the visitor presses play.
            <video
              className="home-hero__video"
              controls
              preload="none"
              poster={videoPoster}
              width={640}
              height={360}
              aria-label="Introduction video"
            >
              <source src={props.introVideoUrl} type="video/mp4" />
            </video>
          )}
        </div>
      </section>

      <section className="service-strip" aria-label="Our services">
        <ul className="container service-strip__list">
          {SERVICE_NAMES.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      </section>

      <section className="section" aria-labelledby="how-title">
        <div className="container">
          <h2 id="how-title" className="center">
            How It Works
          </h2>
          <ol className="cards-3">
            {HOW_IT_WORKS.map((step, index) => (
              <li key={step.title} className="card feature">
                <span className="feature__icon">
                  <Icon name={step.icon} />
                </span>
                <h3>
                  <span className="feature__step">{index + 1}.</span> {step.title}
                </h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section section--tinted" aria-labelledby="payg-title">
        <div className="container two-columns">
          <div>
            <p className="eyebrow">Pay-As-You-Go</p>
            <h2 id="payg-title">Wash & Fold</h2>
            <p>
              No subscription, no minimum commitment: pay only for what you send.
              {washAndFold && (
                <>
                  {" "}
                  {washAndFold.item} is {formatKsh(washAndFold.price)}, with free pickup and delivery.
                </>
              )}
            </p>
            <a className="button button--primary" href="/pricing">
              See all prices
            </a>
          </div>
          <div className="card">
            <h3>Your first pickup: the essentials</h3>
            <ul className="checklist">
              <li>Put everything in one bag: we sort it for you.</li>
              <li>Note stains or delicate items in the special instructions.</li>
              <li>Empty the pockets.</li>
              <li>Have your M-PESA ready, or choose Pay on Delivery.</li>
            </ul>
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="expect-title">
        <div className="container">
          <h2 id="expect-title" className="center">
            What to expect
          </h2>
          <ol className="steps steps--grid">
            {whatToExpect(props.sendsTexts).map((step, index) => (
              <li key={step.title} className="step">
                <span className="step__number" aria-hidden="true">
                  {index + 1}
                </span>
                <div>
                  <h3 className="step__title">{step.title}</h3>
                  <p>{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
          <p className="center muted">
            Standard turnaround is 3-4 days. For next-day rush, tick it when you book your pickup.
          </p>
        </div>
      </section>

      <section className="section section--tinted" aria-labelledby="testimonials-title">
        <div className="container">
          <h2 id="testimonials-title" className="center">
            What our customers say
          </h2>
          <ul className="cards-3">
            {TESTIMONIALS.map((testimonial) => (
              <li key={testimonial.name}>
                <Testimonial testimonial={testimonial} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="why-title">
        <div className="container">
          <h2 id="why-title" className="center">
            Why you'll love us
          </h2>
          <ul className="cards-4">
            {WHY_LOVE.map((block) => (
              <li key={block.title} className="benefit">
                <span className="benefit__icon">
                  <Icon name={block.icon} />
                </span>
                <h3>{block.title}</h3>
                <p>{block.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="banner" aria-labelledby="banner-title">
        <div className="container banner__inner">
          <div>
            <h2 id="banner-title">Get $20 off your first order</h2>
            <p className="banner__how">
              {props.firstOrderDiscount
                ? `Order with a phone number that is new to us and ${formatKsh(props.firstOrderDiscount)} comes off your total, shown before you place the order.`
                : "Mention this offer when we call to confirm your first order."}
            </p>
          </div>
          <a className="button button--light button--large" href="/order">
            Claim your discount
          </a>
        </div>
      </section>

      <section className="section" aria-labelledby="guarantee-title">
        <div className="container narrow center">
          <span className="feature__icon">
            <Icon name="shield" />
          </span>
          <h2 id="guarantee-title">100% Satisfaction Guarantee</h2>
          <p>
            If you are not completely satisfied with the cleaning of any item, ask within {daysWords(props.recleanDays)}{" "}
            of delivery from your order&apos;s page (the link in our texts) and we will pick it up and re-clean it free
            of charge.
          </p>
        </div>
      </section>
    </>
  );
}
