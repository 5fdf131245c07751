// The fields of an order, one implementation for every form that places one: the public order form
// (/order) and the dashboard's "Take a booking" panel. Four groups: Personal Information, Service
// Selection (with the items by the piece), Pickup, and Payment & Instructions. The fields are
// uncontrolled and named as the server reads them, so the page reads the form for its summary.
import type { FormEvent, ReactNode } from "react";
import { describedBy, Field } from "./Field";
import { LocationPin } from "./LocationPin";
import { PickupFields } from "./PickupFields";
import { PiecePicker } from "./PiecePicker";
import { MAX_QUANTITY_KG, pricePhrase } from "../lib/order";
import type { PickupChoices } from "../lib/generated/PickupChoices";
import type { PriceItem, Service } from "../lib/types";

interface OrderFieldsProps {
  services: readonly Service[];
  priceList: readonly PriceItem[];
  /** The pickup windows offered. */
  choices: PickupChoices;
  /** The values the form starts with (sent back by the server, or added by `?add=`). */
  initial: Readonly<Record<string, string | null>>;
  /** The server's message per wrong field. */
  errors: Readonly<Record<string, string>>;
  /** Only items by the piece entered: the service and kg are not required. */
  piecesAlone: boolean;
  /** Items by the piece open from the start. */
  piecesOpen: boolean;
  /** How many items by the piece have a count now. */
  piecesChosen: number;
  /** The business's phone, for when no window is free. */
  businessPhone: string;
  /** Staff taking a call: the phone number comes first (the caller is found by it). */
  phoneFirst?: boolean;
  /** Shown under the phone number (what is known of the caller). */
  afterPhone?: ReactNode;
  /** Called as the phone number is typed. */
  onPhoneInput?: (phone: string) => void;
  /** The map pin to show instead of the initial one, and a key that changes with it. */
  pin?: { lat: string; lng: string; key: string };
}

/** The four field groups of an order. */
export function OrderFields(props: OrderFieldsProps) {
  const { initial, errors, piecesAlone } = props;
  const value = (name: string) => initial[name] ?? "";
  const field = (name: string) => ({ error: errors[name] });
  const aria = (id: string, name: string, hint = false) => ({
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": describedBy(id, hint, errors[name]),
  });
  const onPhoneInput = props.onPhoneInput;
  const phone = (
    <Field id="order-phone" label="Phone Number" {...field("phone")}>
      <input
        id="order-phone"
        name="phone"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        required
        maxLength={20}
        placeholder="07XX XXX XXX"
        defaultValue={value("phone")}
        onInput={
          onPhoneInput ? (event: FormEvent<HTMLInputElement>) => onPhoneInput(event.currentTarget.value) : undefined
        }
        {...aria("order-phone", "phone")}
      />
    </Field>
  );
  const pin = props.pin ?? { lat: value("pinLat"), lng: value("pinLng"), key: "" };
  return (
    <>
      <fieldset>
        <legend>Personal Information</legend>
        {props.phoneFirst && phone}
        {props.afterPhone}
        <Field id="order-name" label="Full Name" {...field("customerName")}>
          <input
            id="order-name"
            name="customerName"
            type="text"
            autoComplete="name"
            required
            maxLength={100}
            defaultValue={value("customerName")}
            {...aria("order-name", "customerName")}
          />
        </Field>
        {!props.phoneFirst && phone}
        <Field
          id="order-email"
          label="Email Address"
          optional
          hint="We'll send your order confirmation and updates to this address."
          {...field("email")}
        >
          <input
            id="order-email"
            name="email"
            type="email"
            autoComplete="email"
            maxLength={254}
            defaultValue={value("email")}
            {...aria("order-email", "email", true)}
          />
        </Field>
        <Field id="order-location" label="Location" {...field("location")}>
          <input
            id="order-location"
            name="location"
            type="text"
            autoComplete="street-address"
            required
            maxLength={200}
            placeholder="Estate, street, building or landmark"
            defaultValue={value("location")}
            {...aria("order-location", "location")}
          />
        </Field>
        <Field
          id="order-landmark"
          label="Landmark"
          optional
          hint="e.g. opposite Yaya Centre, blue gate"
          {...field("landmark")}
        >
          <input
            id="order-landmark"
            name="landmark"
            type="text"
            maxLength={120}
            defaultValue={value("landmark")}
            {...aria("order-landmark", "landmark", true)}
          />
        </Field>
        <LocationPin key={pin.key} lat={pin.lat} lng={pin.lng} error={errors.pin} />
      </fieldset>
      <fieldset>
        <legend>Service Selection</legend>
        <Field
          id="order-service"
          label="Service Type"
          hint={piecesAlone ? "Leave empty to send only the items by the piece below." : undefined}
          {...field("serviceType")}
        >
          <select
            id="order-service"
            name="serviceType"
            required={!piecesAlone}
            defaultValue={value("serviceType")}
            {...aria("order-service", "serviceType", piecesAlone)}
          >
            <option value="">Select a service</option>
            {props.services.map((service) => (
              <option key={service.id} value={service.id}>
                {`${service.label} - ${pricePhrase(service)}`}
              </option>
            ))}
          </select>
        </Field>
        <Field id="order-quantity" label="Quantity (kg)" {...field("quantity")}>
          <input
            id="order-quantity"
            name="quantity"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_QUANTITY_KG}
            step={1}
            required={!piecesAlone}
            defaultValue={value("quantity")}
            {...aria("order-quantity", "quantity")}
          />
        </Field>
        <PiecePicker
          priceList={props.priceList}
          initial={initial}
          errors={errors}
          open={props.piecesOpen}
          chosen={props.piecesChosen}
        />
      </fieldset>
      <PickupFields
        choices={props.choices}
        sent={{ pickup: initial.pickup, rush: initial.rush }}
        errors={errors}
        phone={props.businessPhone}
      />
      <fieldset>
        <legend>Payment & Instructions</legend>
        <div className="field" role="radiogroup" aria-labelledby="order-payment-label">
          <span id="order-payment-label" className="field__label">
            Payment Method
          </span>
          <label className="choice">
            <input
              type="radio"
              name="paymentMethod"
              value="pay-now"
              defaultChecked={value("paymentMethod") !== "pay-delivery"}
            />{" "}
            Pay Now (M-PESA)
          </label>
          <label className="choice">
            <input
              type="radio"
              name="paymentMethod"
              value="pay-delivery"
              defaultChecked={value("paymentMethod") === "pay-delivery"}
            />{" "}
            Pay on Delivery
          </label>
          {errors.paymentMethod && <p className="field__error">{errors.paymentMethod}</p>}
        </div>
        <Field id="order-instructions" label="Special Instructions" optional {...field("specialInstructions")}>
          <textarea
            id="order-instructions"
            name="specialInstructions"
            rows={3}
            maxLength={1000}
            placeholder="Stains to look at, delicate items, gate code…"
            defaultValue={value("specialInstructions")}
            {...aria("order-instructions", "specialInstructions")}
          />
        </Field>
      </fieldset>
    </>
  );
}
