// The props the server sends with every page. Field names match the server's JSON.

/** One entry of the price list (spec section 9). */
export interface PriceItem {
  item: string;
  price: number;
}

/** One orderable service of the catalogue, priced per kg. */
export interface Service {
  id: string;
  label: string;
  pricePerKg: number;
}

/** Business details, from the server's configuration. */
export interface Business {
  name: string;
  phone: string;
  whatsapp: string;
  email: string;
  website: string;
  location: string;
  mpesaTill: string;
}

/** What every page receives, whatever the page. */
export interface SharedProps {
  /** The request path, for the active header link. */
  path: string;
  /** The year of the copyright line, given by the server so that both renders agree. */
  year: number;
  business: Business;
  /** The single catalogue's price list; the header search reads it. */
  priceList: PriceItem[];
}

/** The props of the error page (404, 500). */
export interface ErrorProps extends SharedProps {
  status: number;
}

/** Props of the pricing page. */
export interface PricingProps extends SharedProps {
  services: Service[];
}

/** The JSON embedded in the document for the client entry. */
export interface PageData {
  page: string;
  props: SharedProps;
}

/** A form the server sends back: the entered values, a message per wrong field, and an alert. */
export interface FormState {
  values: Record<string, string | null>;
  errors: Record<string, string>;
  alert: string | null;
  /** The HTTP status the page answers with. */
  status: number;
}
