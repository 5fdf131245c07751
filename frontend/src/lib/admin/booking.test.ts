import { test } from "node:test";
import assert from "node:assert/strict";
import { bookedText, bookingBody, callerNumber, fillsFrom } from "./booking";
import { sourceLabel } from "./origin";

const caller = {
  customerName: "Amina Wanjiru",
  email: "amina@example.com",
  location: "Kilimani, Argwings Kodhek Rd",
  landmark: "Opposite Yaya Centre",
  pinLat: -1.2921,
  pinLng: 36.8219,
};

test("a whole Kenyan number is looked up in its normal form, however it is typed", () => {
  for (const typed of ["0712 345 678", "0712-345-678", "+254 712 345 678", "254712345678", " (0712) 345.678 "]) {
    assert.equal(callerNumber(typed), "+254712345678", typed);
  }
  assert.equal(callerNumber("0110 123 456"), "+254110123456");
});

test("a number still being typed, or not a Kenyan mobile one, is not looked up", () => {
  for (const typed of ["", "0712", "0712 345 67", "0712 345 6789", "0812 345 678", "+1 712 345 678", "0712a45678"]) {
    assert.equal(callerNumber(typed), null, typed);
  }
});

test("the caller's last order fills only the fields still empty", () => {
  const fills = fillsFrom({ customerName: "Amina W.", email: "", location: "  " }, caller);
  assert.deepEqual(fills, {
    email: "amina@example.com",
    location: "Kilimani, Argwings Kodhek Rd",
    landmark: "Opposite Yaya Centre",
    pinLat: "-1.292100",
    pinLng: "36.821900",
  });
  assert.equal(fillsFrom({}, { ...caller, email: null, landmark: "" }).email, undefined, "nothing to fill with");
  assert.equal(fillsFrom({ pinLat: "-1.3", pinLng: "36.7" }, caller).pinLat, undefined, "a pin already there stays");
  assert.equal(fillsFrom({}, { ...caller, pinLat: null, pinLng: null }).pinLat, undefined);
});

test("a corrected number replaces what the wrong one filled, and keeps what staff typed", () => {
  const first = fillsFrom({}, caller);
  const current = { ...first, location: "Typed by staff" };
  const other = {
    ...caller,
    customerName: "Otieno Kamau",
    email: null,
    location: "Lavington",
    pinLat: null,
    pinLng: null,
  };
  assert.deepEqual(fillsFrom(current, other, first), {
    customerName: "Otieno Kamau",
    email: "",
    landmark: "Opposite Yaya Centre",
    pinLat: "",
    pinLng: "",
  });
  const none = fillsFrom(first, null, first);
  assert.equal(none.customerName, "");
  assert.equal(none.pinLat, "");
});

test("the booking sends the form's fields with how it came in and whether the window was agreed", () => {
  assert.deepEqual(bookingBody({ phone: "0712 345 678", "piece.shirt": "2" }, "whatsapp", true), {
    phone: "0712 345 678",
    "piece.shirt": "2",
    source: "whatsapp",
    confirmSlot: true,
  });
  assert.equal(bookingBody({}, null, false).source, null);
});

test("the panel says which order was booked for which window, and whether it is confirmed", () => {
  const pickup = "Wed 25 Nov, 19:00-20:00";
  assert.equal(
    bookedText({ id: "K7MX2QPD", pickup, pickupConfirmed: false }),
    "Order K7MX2QPD booked for Wed 25 Nov, 19:00-20:00.",
  );
  assert.equal(
    bookedText({ id: "K7MX2QPD", pickup, pickupConfirmed: true }),
    "Order K7MX2QPD booked for Wed 25 Nov, 19:00-20:00, confirmed.",
  );
  assert.equal(bookedText({ id: "K7MX2QPD", pickup: null, pickupConfirmed: false }), "Order K7MX2QPD booked.");
});

test("every way an order comes in has its label", () => {
  assert.deepEqual((["web", "sms", "phone", "whatsapp"] as const).map(sourceLabel), [
    "Online",
    "Text",
    "Phone",
    "WhatsApp",
  ]);
});
