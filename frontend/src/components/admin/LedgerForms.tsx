// The forms under an order's ledger, each adding one entry: a refund of what is owed back (an
// M-PESA reversal done by hand, cash, or store credit), what is owed back kept as store credit, a
// discount with its reason, and the correction of an entry entered by mistake (with its reason).
import { useState } from "react";
import { correctEntry, giveDiscount, keepAsCredit, recordRefund } from "../../lib/admin/api";
import { lineAmount } from "../../lib/admin/display";
import { entryWhat, methodLabel, parseAmount } from "../../lib/admin/money";
import type { LedgerEntryView, Method, OrderChanged, OrderDetail } from "../../lib/admin/types";
import { useChange } from "../../lib/admin/useChange";
import { formatKsh } from "../../lib/format";
import { MoneyField, MoneyForm } from "./MoneyForm";

/** What every ledger form is given. */
interface LedgerFormProps {
  order: OrderDetail;
  csrf: string;
  /** Saved: the order as it now is, and what to tell the staff member. */
  onDone: (changed: OrderChanged, said: string) => void;
  onClose: () => void;
  onSessionEnded: () => void;
}

/** The ways a refund goes back, as the form offers them. */
const REFUND_METHODS: readonly Method[] = ["mpesa-reversal", "cash", "credit"];

/** A refund: amount (what is owed back), how, a reference and a note. */
export function RefundForm({ order, csrf, onDone, onClose, onSessionEnded }: LedgerFormProps) {
  const change = useChange(["amount", "method", "reference", "note"], onSessionEnded);
  const [amount, setAmount] = useState(String(order.owedBack));
  const [method, setMethod] = useState<Method>("mpesa-reversal");
  const [reference, setReference] = useState("");
  const [note, setNote] = useState("");
  const id = `refund-${order.id}`;

  async function save() {
    const typed = parseAmount(amount);
    if ("error" in typed) return change.setErrors({ amount: typed.error });
    const body = { amount: typed.amount, method, reference: reference.trim(), note: note.trim() };
    const changed = await change.send(() => recordRefund(order.id, body, csrf));
    if (changed) onDone(changed, `Refund of ${formatKsh(typed.amount)} recorded (${methodLabel(method)}).`);
  }

  return (
    <MoneyForm
      id={id}
      legend={`Refund for order ${order.id}`}
      lead={`${formatKsh(order.owedBack)} is owed back to the customer.`}
      submit="Record refund"
      saving={change.saving}
      errors={change.errors}
      failure={change.failure}
      onSubmit={() => void save()}
      onClose={onClose}
    >
      <MoneyField
        id={`${id}-amount`}
        label="Amount given back (KSh)"
        error={change.errors.amount}
        value={amount}
        onChange={setAmount}
        numeric
      />
      <fieldset className="money-form__choices">
        <legend>How it goes back</legend>
        <div className="payment-panel__choices">
          {REFUND_METHODS.map((value) => (
            <label key={value} className="choice">
              <input
                type="radio"
                name={`${id}-method`}
                value={value}
                checked={method === value}
                onChange={() => setMethod(value)}
              />{" "}
              {methodLabel(value)}
            </label>
          ))}
        </div>
        {change.errors.method && <p className="field__error">{change.errors.method}</p>}
      </fieldset>
      <MoneyField
        id={`${id}-reference`}
        label="Reference"
        optional
        hint="The reversal's M-PESA code, or a receipt number."
        error={change.errors.reference}
        value={reference}
        onChange={setReference}
        maxLength={200}
      />
      <MoneyField
        id={`${id}-note`}
        label="Note"
        optional
        error={change.errors.note}
        value={note}
        onChange={setNote}
        maxLength={200}
      />
    </MoneyForm>
  );
}

/** What is owed back, kept as store credit for the phone number's next order. */
export function CreditForm({ order, csrf, onDone, onClose, onSessionEnded }: LedgerFormProps) {
  const change = useChange([], onSessionEnded);

  async function save() {
    const changed = await change.send(() => keepAsCredit(order.id, csrf));
    if (changed) onDone(changed, `${formatKsh(order.owedBack)} kept as store credit for ${order.phone}.`);
  }

  return (
    <MoneyForm
      id={`credit-${order.id}`}
      legend="Keep as store credit"
      lead={`${formatKsh(order.owedBack)} is kept as store credit for ${order.phone}: the next order from that number uses it.`}
      submit="Keep as store credit"
      saving={change.saving}
      errors={change.errors}
      failure={change.failure}
      onSubmit={() => void save()}
      onClose={onClose}
    />
  );
}

/** A discount: an amount and why. */
export function DiscountForm({ order, csrf, onDone, onClose, onSessionEnded }: LedgerFormProps) {
  const change = useChange(["amount", "reason"], onSessionEnded);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const id = `discount-${order.id}`;

  async function save() {
    const typed = parseAmount(amount);
    const errors: Record<string, string> = {};
    if ("error" in typed) errors.amount = typed.error;
    if (reason.trim() === "") errors.reason = "Say why the customer pays less.";
    if ("error" in typed || errors.reason) return change.setErrors(errors);
    const changed = await change.send(() =>
      giveDiscount(order.id, { amount: typed.amount, reason: reason.trim() }, csrf),
    );
    if (changed) onDone(changed, `Discount of ${formatKsh(typed.amount)} given.`);
  }

  return (
    <MoneyForm
      id={id}
      legend={`Discount on order ${order.id}`}
      lead={`The order costs ${formatKsh(order.balance.charged)}; a discount is at most that.`}
      submit="Give discount"
      saving={change.saving}
      errors={change.errors}
      failure={change.failure}
      onSubmit={() => void save()}
      onClose={onClose}
    >
      <MoneyField
        id={`${id}-amount`}
        label="Amount off (KSh)"
        error={change.errors.amount}
        value={amount}
        onChange={setAmount}
        numeric
      />
      <MoneyField
        id={`${id}-reason`}
        label="Reason"
        hint="Kept in the ledger with your name."
        error={change.errors.reason}
        value={reason}
        onChange={setReason}
        maxLength={200}
      />
    </MoneyForm>
  );
}

/** The correction of `entry`: a new entry of the opposite amount, with the reason. */
export function CorrectForm({ entry, ...props }: LedgerFormProps & { entry: LedgerEntryView }) {
  const { order, csrf, onDone, onClose, onSessionEnded } = props;
  const change = useChange(["reason"], onSessionEnded);
  const [reason, setReason] = useState("");
  const id = `correct-${entry.id}`;
  const what = `${entryWhat(entry)}${entry.method ? ` (${methodLabel(entry.method)})` : ""} of ${formatKsh(Math.abs(entry.amount))}`;

  async function save() {
    if (reason.trim() === "") return change.setErrors({ reason: "Say what was wrong with the entry." });
    const changed = await change.send(() => correctEntry(order.id, entry.id, reason.trim(), csrf));
    if (changed) onDone(changed, `${what} corrected.`);
  }

  return (
    <MoneyForm
      id={id}
      legend={`Correct: ${what}`}
      lead={`A new entry of ${lineAmount(-entry.amount)} undoes it; both stay in the ledger.`}
      submit="Correct entry"
      saving={change.saving}
      errors={change.errors}
      failure={change.failure}
      onSubmit={() => void save()}
      onClose={onClose}
    >
      <MoneyField
        id={`${id}-reason`}
        label="Reason"
        hint="What was wrong: typed on the wrong order, the wrong amount, …"
        error={change.errors.reason}
        value={reason}
        onChange={setReason}
        maxLength={200}
      />
    </MoneyForm>
  );
}
