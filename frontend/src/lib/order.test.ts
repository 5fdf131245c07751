import { test } from "node:test";
import assert from "node:assert/strict";
import {
  addition,
  anyPieceEntered,
  formatAmount,
  formatQuantity,
  kgAmount,
  lineDetail,
  orderBody,
  parseCount,
  parseQuantity,
  pricePhrase,
  quote,
} from "./order";
import type { PriceItem, Service } from "./types";

const services: Service[] = [
  { id: "wash-fold", label: "Wash & Fold", pricePerKg: 150, bundle: null },
  { id: "dry-cleaning", label: "Dry Cleaning", pricePerKg: 500, bundle: null },
  { id: "general-laundry", label: "General Laundry", pricePerKg: 100, bundle: { kg: 5, price: 500 } },
];

const priceList: PriceItem[] = [
  { id: "general-laundry", item: "General Laundry (1-5kg)", price: 500, unit: "kg", service: "general-laundry" },
  { id: "additional-kg", item: "Each Additional Kg", price: 100, unit: "kg", service: "general-laundry" },
  { id: "shirt", item: "Shirt", price: 200, unit: "piece", service: null },
  { id: "graduation-gown", item: "Graduation Gown", price: 700, unit: "piece", service: null },
  { id: "curtains-per-kg", item: "Curtains (per kg)", price: 300, unit: "kg", service: null },
];

const catalogue = { services, priceList };

test("whole kilograms from 1 are quantities", () => {
  assert.equal(parseQuantity("1"), 1);
  assert.equal(parseQuantity(" 12 "), 12);
  assert.equal(parseQuantity("500"), 500);
});

test("zero, fractions, negatives, words and huge numbers are not", () => {
  for (const text of ["0", "1.5", "-2", "two", "", "501", "1e3"]) {
    assert.equal(parseQuantity(text), null, text);
  }
});

test("a blank or zero count means none, and counts stop at 50 pieces or 500 kg", () => {
  assert.equal(parseCount("", "piece"), 0);
  assert.equal(parseCount("0", "piece"), 0);
  assert.equal(parseCount("50", "piece"), 50);
  assert.equal(parseCount("51", "piece"), null);
  assert.equal(parseCount("500", "kg"), 500);
  assert.equal(parseCount("501", "kg"), null);
  assert.equal(parseCount("1.5", "piece"), null);
  assert.equal(parseCount("-1", "kg"), null);
});

test("a service without a bundle costs its price per kg times the kg", () => {
  assert.equal(kgAmount(services[0]!, 3), 450);
  assert.equal(kgAmount(services[1]!, 3), 1500);
});

test("general laundry is KSh 500 for up to 5 kg, then KSh 100 per extra kg", () => {
  const general = services[2]!;
  assert.deepEqual(
    [1, 5, 6, 8].map((kg) => kgAmount(general, kg)),
    [500, 500, 600, 800],
  );
});

test("the service options read their price per kg, or the bundle's terms", () => {
  assert.equal(pricePhrase(services[0]!), "KSh 150 per kg");
  assert.equal(pricePhrase(services[2]!), "KSh 500 up to 5 kg, then KSh 100 per kg");
});

test("nothing chosen gives no quote, so the summary asks for a service", () => {
  assert.equal(quote(catalogue, {}), null);
  assert.equal(quote(catalogue, { serviceType: "", quantity: "3", "piece.shirt": "0" }), null);
});

test("a kg line and two pieces make three lines and their sum", () => {
  const result = quote(catalogue, {
    serviceType: "wash-fold",
    quantity: "3",
    "piece.shirt": "2",
    "piece.graduation-gown": "1",
    "piece.curtains-per-kg": "",
  });
  assert.deepEqual(
    result?.lines.map((line) => [line.kind, line.label, line.quantity, line.unit, line.amount]),
    [
      ["kg", "Wash & Fold", 3, "kg", 450],
      ["piece", "Shirt", 2, "piece", 400],
      ["piece", "Graduation Gown", 1, "piece", 700],
    ],
  );
  assert.equal(result?.total, 1550);
  assert.deepEqual(result?.problems, []);
});

test("curtains are counted in kg at their price per kg", () => {
  const result = quote(catalogue, { serviceType: "dry-cleaning", quantity: "1", "piece.curtains-per-kg": "4" });
  assert.deepEqual(result?.lines[1], {
    kind: "piece",
    item: "curtains-per-kg",
    label: "Curtains (per kg)",
    quantity: 4,
    unit: "kg",
    unitPrice: 300,
    amount: 1200,
  });
  assert.equal(result?.total, 1700);
});

test("a bad quantity says what is wrong instead of a total", () => {
  for (const text of ["0", "2.5", "600"]) {
    const result = quote(catalogue, { serviceType: "wash-fold", quantity: text });
    assert.deepEqual(result?.problems, ["Enter whole kilograms from 1 to 500"], text);
    assert.equal(result?.total, null);
  }
  assert.deepEqual(quote(catalogue, { serviceType: "wash-fold", quantity: "" })?.problems, [
    "Enter the quantity in kg",
  ]);
});

test("pieces may be ordered alone, at their prices", () => {
  const result = quote(catalogue, { serviceType: "", quantity: "", "piece.shirt": "2" });
  assert.deepEqual(
    result?.lines.map((line) => line.label),
    ["Shirt"],
  );
  assert.deepEqual(result?.problems, []);
  assert.equal(result?.total, 400);
});

test("kg without a service ask for the service", () => {
  const result = quote(catalogue, { serviceType: "", quantity: "3", "piece.shirt": "2" });
  assert.deepEqual(result?.problems, ["Choose a service type for your kg"]);
  assert.equal(result?.total, null);
});

test("a wrong count names its item", () => {
  const result = quote(catalogue, {
    serviceType: "wash-fold",
    quantity: "2",
    "piece.shirt": "51",
    "piece.curtains-per-kg": "1.5",
  });
  assert.deepEqual(result?.problems, [
    "Shirt: enter 1 to 50 pieces",
    "Curtains (per kg): enter whole kg from 1 to 500",
  ]);
});

test("general laundry's entries are not items of their own", () => {
  const result = quote(catalogue, { serviceType: "wash-fold", quantity: "2", "piece.general-laundry": "3" });
  assert.equal(result?.lines.length, 1);
});

test("a bundle line explains itself, a plain line shows its count and price", () => {
  const [general] = quote(catalogue, { serviceType: "general-laundry", quantity: "8" })!.lines;
  assert.equal(general?.amount, 800);
  assert.equal(lineDetail(general!, services), "8 kg: KSh 500 for up to 5 kg + KSh 100 × 3 kg");
  const [small] = quote(catalogue, { serviceType: "general-laundry", quantity: "4" })!.lines;
  assert.equal(lineDetail(small!, services), "4 kg: KSh 500 for up to 5 kg");
  const [wash, shirts] = quote(catalogue, { serviceType: "wash-fold", quantity: "3", "piece.shirt": "2" })!.lines;
  assert.equal(lineDetail(wash!, services), "3 kg × KSh 150");
  assert.equal(lineDetail(shirts!, services), "2 pieces × KSh 200");
});

test("without the services a line whose amount is not kg times price shows only its kg", () => {
  const [general] = quote(catalogue, { serviceType: "general-laundry", quantity: "3" })!.lines;
  assert.equal(general?.amount, 500);
  assert.equal(lineDetail(general!), "3 kg");
});

test("a discount line has no detail and reads as a minus amount", () => {
  const discount = {
    kind: "discount",
    item: "first-order",
    label: "First order discount",
    quantity: 1,
    unit: "piece",
    unitPrice: -200,
    amount: -200,
  } as const;
  assert.equal(lineDetail(discount), null);
  assert.equal(formatAmount(-200), "−KSh 200");
  assert.equal(formatAmount(1550), "KSh 1,550");
});

test("quantities read with their unit", () => {
  assert.equal(formatQuantity(3, "kg"), "3 kg");
  assert.equal(formatQuantity(1, "piece"), "1 piece");
  assert.equal(formatQuantity(2, "piece"), "2 pieces");
});

test("adding an item counts it up by one, up to the limit", () => {
  assert.deepEqual(addition(priceList, {}, "shirt"), { "piece.shirt": "1" });
  assert.deepEqual(addition(priceList, { "piece.shirt": "2" }, "shirt"), { "piece.shirt": "3" });
  assert.deepEqual(addition(priceList, { "piece.shirt": "50" }, "shirt"), { "piece.shirt": "50" });
  assert.deepEqual(addition(priceList, { "piece.shirt": "abc" }, "shirt"), { "piece.shirt": "1" });
});

test("adding a general laundry entry chooses that service", () => {
  assert.deepEqual(addition(priceList, {}, "additional-kg"), { serviceType: "general-laundry" });
  assert.equal(addition(priceList, {}, "sofa"), null);
});

test("the pieces section opens when a count is entered", () => {
  assert.equal(anyPieceEntered({ serviceType: "wash-fold", "piece.shirt": "" }), false);
  assert.equal(anyPieceEntered({ "piece.shirt": "0" }), false);
  assert.equal(anyPieceEntered({ "piece.shirt": "2" }), true);
});

test("the form's values are sent as typed, its piece fields gathered into pieces", () => {
  const body = orderBody({
    customerName: "Amina Wanjiru",
    phone: "0712 345 678",
    email: "",
    location: "Kilimani",
    landmark: "Blue gate",
    serviceType: "wash-fold",
    quantity: " 3 ",
    paymentMethod: "pay-delivery",
    specialInstructions: "",
    pickup: "2026-11-25T19:00",
    rush: "on",
    "piece.shirt": "2",
    "piece.graduation-gown": "",
    idempotencyKey: "k-1",
  });
  assert.deepEqual(body, {
    customerName: "Amina Wanjiru",
    phone: "0712 345 678",
    email: "",
    location: "Kilimani",
    landmark: "Blue gate",
    serviceType: "wash-fold",
    quantity: " 3 ",
    paymentMethod: "pay-delivery",
    specialInstructions: "",
    pickup: "2026-11-25T19:00",
    rush: true,
    pinLat: undefined,
    pinLng: undefined,
    pieces: { shirt: "2", "graduation-gown": "" },
  });
});

test("an unchecked rush box and no payment chosen send no rush and pay now", () => {
  const body = orderBody({ customerName: "Brian", serviceType: "", quantity: "" });
  assert.equal(body.rush, false);
  assert.equal(body.paymentMethod, "pay-now");
  assert.deepEqual(body.pieces, {});
  assert.equal(JSON.stringify(body).includes("pickup"), false, "a field the form does not hold is left out");
});
