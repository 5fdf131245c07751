// The order form's Pickup group: the day and window the valet comes (the next days' windows,
// grouped by day, rendered on the server so that the form works without JavaScript), and next-day
// rush with what it costs.
import { describedBy, Field } from "./Field";
import { initialPickup, isRush, optionLabel, rushLabel, turnaroundText } from "../lib/pickup";
import type { PickupChoices } from "../lib/generated/PickupChoices";

interface PickupFieldsProps {
  choices: PickupChoices;
  /** The values sent back with the form (`pickup`, `rush`), if any. */
  sent: { pickup?: string | null | undefined; rush?: string | null | undefined };
  errors: Readonly<Record<string, string | undefined>>;
  /** The business's phone, for when no window is free. */
  phone: string;
  /** Whether next-day rush is offered (not for a free re-clean); yes unless said. */
  rush?: boolean;
}

/** The pickup select and the rush checkbox. */
export function PickupFields({ choices, sent, errors, phone, rush = true }: PickupFieldsProps) {
  const none = choices.days.every((day) => day.windows.every((option) => option.remaining === 0));
  const hint = none
    ? `No pickup window is free in the next days. Please call us on ${phone} and we will find a time.`
    : "Times are Nairobi time. We call you within 30 minutes to confirm your slot.";
  return (
    <fieldset>
      <legend>Pickup</legend>
      <Field id="order-pickup" label="Pickup Day and Window" hint={hint} error={errors.pickup}>
        <select
          id="order-pickup"
          name="pickup"
          required
          defaultValue={initialPickup(choices, sent.pickup)}
          aria-invalid={errors.pickup ? true : undefined}
          aria-describedby={describedBy("order-pickup", true, errors.pickup)}
        >
          <option value="">Choose a pickup window</option>
          {choices.days.map((day) => (
            <optgroup key={day.date} label={day.label}>
              {day.windows.map((option) => (
                <option key={option.value} value={option.value} disabled={option.remaining === 0}>
                  {optionLabel(option)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </Field>
      {rush && <RushField choices={choices} sent={sent} errors={errors} />}
    </fieldset>
  );
}

/** Next-day rush, with what it costs and when it brings the laundry back. */
function RushField({ choices, sent, errors }: Omit<PickupFieldsProps, "phone" | "rush">) {
  return (
    <div className={errors.rush ? "field field--invalid" : "field"}>
      <label className="choice">
        <input
          type="checkbox"
          name="rush"
          defaultChecked={isRush(sent.rush)}
          aria-describedby={describedBy("order-rush", true, errors.rush)}
        />{" "}
        {rushLabel(choices.rushLine)}
      </label>
      <p className="field__hint" id="order-rush-hint">
        {turnaroundText(choices.turnaroundDays)} as standard. With rush, we deliver the day after pickup.
      </p>
      {errors.rush && (
        <p className="field__error" id="order-rush-error">
          {errors.rush}
        </p>
      )}
    </div>
  );
}
