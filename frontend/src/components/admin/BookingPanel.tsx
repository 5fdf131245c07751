// "Take a booking" on the dashboard's Orders tab: staff place an order for a caller on the phone or
// from a WhatsApp chat. The fields are the public order form's own (OrderFields), the phone number
// first: a whole number typed is looked up after a short pause, and the caller's last order fills
// the fields still empty and lists their earlier orders. The booking goes to /api/admin/orders,
// which places it by the public form's path; the pickup window can be confirmed in the same step.
// Needs JavaScript, as every change on the dashboard does.
import { type FormEvent, useEffect, useRef, useState } from "react";
import { OrderFields } from "../OrderFields";
import { OrderSummary } from "../OrderSummary";
import { AdminError } from "../../lib/admin/api";
import {
  type BookingForm,
  type BookingPlaced,
  type BookingSource,
  bookedText,
  bookingBody,
  callerNumber,
  type CustomerLookup,
  fillsFrom,
  findCaller,
  getBookingForm,
  LOOKUP_DELAY_MS,
  placeBooking,
} from "../../lib/admin/booking";
import { anyPieceEntered, quote } from "../../lib/order";
import { findOption, isRush, withRush } from "../../lib/pickup";
import { LatestRequest } from "../../lib/admin/resource";
import { useResource } from "../../lib/admin/useResource";
import { formValues, newIdempotencyKey } from "../../lib/submit";
import { useMessageInView } from "../../lib/useMessageInView";
import type { Business, PriceItem } from "../../lib/types";
import { AdminAlert } from "./AdminAlert";
import { CallerOrders } from "./CallerOrders";

/** Above the form when the server named wrong fields. */
const CORRECT_FIELDS = "Please correct the highlighted fields.";
/** After a 409: this key was used for a booking with other details. */
const ALREADY_PLACED =
  "This booking was already placed with the details sent first. To place another with these details, press Place booking again.";

interface BookingPanelProps {
  csrf: string;
  priceList: readonly PriceItem[];
  business: Business;
  /** A booking was stored: the orders list is loaded again. */
  onPlaced: (placed: BookingPlaced) => void;
  /** Opens an order's detail, as the orders list does. */
  onOpen: (id: string) => void;
  onClose: () => void;
  onSessionEnded: () => void;
}

/** Sets an uncontrolled field of the form as if staff had typed it. */
function setField(form: HTMLFormElement, name: string, value: string) {
  const field = form.elements.namedItem(name);
  if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) field.value = value;
}

/** The panel, with its form once the services and windows have loaded. */
export function BookingPanel(props: BookingPanelProps) {
  const { csrf, onSessionEnded } = props;
  // The services and windows, loaded when the panel opens and again after a booking. The failure of
  // a look-up or of the booking itself shows in the same place (`failed`).
  const bookingForm = useResource<BookingForm | null>({
    fetch: getBookingForm,
    initial: null,
    onSessionEnded,
    key: "booking-form",
  });
  const { data: choices, failure, fail: failed } = bookingForm;
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [source, setSource] = useState<BookingSource>("phone");
  const [confirm, setConfirm] = useState(false);
  const [sending, setSending] = useState(false);
  const [placed, setPlaced] = useState<BookingPlaced | null>(null);
  const [caller, setCaller] = useState<CustomerLookup | null>(null);
  const [looking, setLooking] = useState(false);
  const [pin, setPin] = useState({ lat: "", lng: "", key: "none" });
  // A new form (and key) after each booking: the fields are uncontrolled, so the form is remounted.
  const [round, setRound] = useState(0);
  const [key, setKey] = useState(newIdempotencyKey);
  const form = useRef<HTMLFormElement>(null);
  // The answer to "Place booking", booked or refused, is brought into view (the button is far below).
  const placedElement = useMessageInView<HTMLParagraphElement>(placed);
  const alertElement = useMessageInView<HTMLDivElement>(alert);
  const lookupTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [lookups] = useState(() => new LatestRequest());
  // What the last look-up put in the fields: a look-up of a corrected number replaces it.
  const lookupFilled = useRef<Record<string, string>>({});

  /** The windows again, with their places now (after a booking, or a window refused as full). */
  const loadChoices = () => bookingForm.load();

  useEffect(
    () => () => {
      clearTimeout(lookupTimer.current);
      lookups.abort();
    },
    [lookups],
  );

  const readForm = () => {
    if (form.current) setValues(formValues(form.current));
  };

  /** After a pause in typing, a whole number is looked up and fills the fields still empty. */
  function phoneTyped(typed: string) {
    clearTimeout(lookupTimer.current);
    lookups.abort();
    const number = callerNumber(typed);
    if (number === null) {
      setCaller(null);
      setLooking(false);
      return;
    }
    lookupTimer.current = setTimeout(() => void lookUp(number), LOOKUP_DELAY_MS);
  }

  async function lookUp(number: string) {
    const call = lookups.start();
    setLooking(true);
    try {
      const found = await findCaller(number, call.signal);
      const element = form.current;
      if (element) {
        const fills = fillsFrom(formValues(element), found.customer, lookupFilled.current);
        for (const [name, value] of Object.entries(fills)) setField(element, name, value);
        if (fills.pinLat !== undefined && fills.pinLng !== undefined) {
          setPin({ lat: fills.pinLat, lng: fills.pinLng, key: found.phone });
        }
        lookupFilled.current = Object.fromEntries(Object.entries(fills).filter(([, value]) => value !== ""));
        readForm();
      }
      setCaller(found);
    } catch (error) {
      if (!call.signal.aborted) failed(error);
    } finally {
      if (lookups.end(call)) setLooking(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    setAlert(null);
    bookingForm.clearFailure();
    setPlaced(null);
    const sent = formValues(event.currentTarget);
    try {
      const booked = await placeBooking(bookingBody(sent, source, confirm), key, csrf);
      setPlaced(booked);
      setErrors({});
      setCaller(null);
      setConfirm(false);
      setPin({ lat: "", lng: "", key: "none" });
      lookupFilled.current = {};
      setValues({});
      setKey(newIdempotencyKey());
      setRound((count) => count + 1);
      props.onPlaced(booked);
      void loadChoices();
    } catch (error) {
      if (error instanceof AdminError && error.status === 422) {
        setErrors(error.fields);
        setAlert(error.fields.source ?? CORRECT_FIELDS);
        if (error.fields.pickup) void loadChoices();
      } else if (error instanceof AdminError && error.status === 409) {
        setErrors({});
        setKey(newIdempotencyKey());
        setAlert(ALREADY_PLACED);
      } else {
        setErrors({});
        failed(error);
      }
    } finally {
      setSending(false);
    }
  }

  const catalogue = choices ? { services: choices.services, priceList: props.priceList } : null;
  const current =
    catalogue && choices ? withRush(quote(catalogue, values), choices.pickup.rushLine, isRush(values.rush)) : null;
  return (
    <section className="card booking-panel" id="booking-panel" aria-labelledby="booking-title">
      <div className="booking-panel__head">
        <h2 id="booking-title">Take a booking</h2>
        <button type="button" className="button button--outline button--small" onClick={props.onClose}>
          Close
        </button>
      </div>
      {placed && (
        <p ref={placedElement} className="alert alert--success" role="status" tabIndex={-1}>
          {bookedText(placed)}
        </p>
      )}
      {failure && <AdminAlert failure={failure} />}
      {!choices ? (
        !failure && (
          <p className="admin-loading" role="status">
            <span className="spinner" aria-hidden="true" /> Loading the booking form…
          </p>
        )
      ) : (
        <form
          key={round}
          ref={form}
          className="form order-form booking-form"
          onSubmit={submit}
          onChange={readForm}
          noValidate
        >
          <div className="order-form__fields">
            {alert && (
              <div ref={alertElement} className="alert alert--error" role="alert" tabIndex={-1}>
                {alert}
              </div>
            )}
            <fieldset className={errors.source ? "booking-form__source field--invalid" : "booking-form__source"}>
              <legend>Taken by</legend>
              {(["phone", "whatsapp"] as const).map((way) => (
                <label key={way} className="choice">
                  <input
                    type="radio"
                    name="source"
                    value={way}
                    checked={source === way}
                    onChange={() => setSource(way)}
                  />{" "}
                  {way === "phone" ? "Phone" : "WhatsApp"}
                </label>
              ))}
              {errors.source && <p className="field__error">{errors.source}</p>}
            </fieldset>
            <OrderFields
              services={choices.services}
              priceList={props.priceList}
              choices={choices.pickup}
              initial={{}}
              errors={errors}
              piecesAlone={anyPieceEntered(values)}
              piecesOpen={false}
              piecesChosen={current?.lines.filter((line) => line.kind === "piece").length ?? 0}
              businessPhone={props.business.phone}
              phoneFirst
              onPhoneInput={phoneTyped}
              pin={pin}
              afterPhone={<CallerOrders caller={caller} looking={looking} onOpen={props.onOpen} />}
            />
            <label className="choice booking-form__confirm">
              <input type="checkbox" checked={confirm} onChange={(event) => setConfirm(event.target.checked)} /> Pickup
              window agreed with the customer (confirm it now)
            </label>
          </div>
          <OrderSummary
            quote={current}
            services={choices.services}
            phone={values.phone ?? ""}
            payNow={values.paymentMethod !== "pay-delivery"}
            prompts={choices.prompts}
            till={props.business.mpesaTill}
            firstOrderDiscount={choices.firstOrderDiscount ?? null}
            pickup={findOption(choices.pickup, values.pickup)}
            rush={isRush(values.rush)}
          />
          <div className="order-form__submit">
            <button type="submit" className="button button--primary button--large button--block" disabled={sending}>
              {sending ? "Placing booking…" : "Place booking"}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
